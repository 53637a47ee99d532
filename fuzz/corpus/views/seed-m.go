// Package shapes computes areas.
package shapes

import (
	"fmt"
	"math"
)

// Shape is anything with an area.
type Shape interface {
	Area() float64
	Perimeter() float64
}

// Circle is a round shape.
type Circle struct {
	R float64
}

type (
	// Meters is a length.
	Meters float64
	Alias  = Meters
)

// Area of the circle.
func (c Circle) Area() float64 {
	return math.Pi * c.R * c.R
}

func (c *Circle) Perimeter() float64 {
	return 2 * math.Pi * c.R
}

// Describe prints a shape.
func Describe(s Shape) {
	fmt.Println(s.Area())
}

func Map[T any](xs []T, f func(T) T) []T {
	out := make([]T, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}
