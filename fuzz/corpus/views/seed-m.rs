//! A small crate: shapes and their areas.

use std::fmt;

/// The largest side accepted.
pub const MAX_SIDE: f64 = 1e6;

/// A point in the plane.
#[derive(Debug, Clone, Copy)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// Shapes the crate knows.
pub enum Shape {
    Circle(f64),
    Square(f64),
}

pub type Pair = (Point, Point);

/// Something with an area.
pub trait Area {
    /// The area in square units.
    fn area(&self) -> f64;

    fn double(&self) -> f64 {
        self.area() * 2.0
    }
}

impl Point {
    /// The origin.
    pub fn origin() -> Self {
        Point { x: 0.0, y: 0.0 }
    }

    pub fn dist(&self, other: &Point) -> f64 {
        ((self.x - other.x).powi(2) + (self.y - other.y).powi(2)).sqrt()
    }
}

impl Area for Shape {
    fn area(&self) -> f64 {
        match self {
            Shape::Circle(r) => std::f64::consts::PI * r * r,
            Shape::Square(s) => s * s,
        }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

mod tests {
    fn helper() -> u32 {
        1
    }

    fn helper() -> u32 {
        2
    }
}

macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}
