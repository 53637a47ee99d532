	using System;
using System.Collections.Generic;

namespace Shapes
{
    /// <summary>Something with an area.</summary>
    public interface IShape
    {
        double Area();
    }

    public enum Kind { Circle, Square }

    public delegate void Changed(IShape shape);

    /// <summary>A round shape.</summary>
    [Serializable]
    public class Circle : IShape
    {
        private readonly double _r;

        public Circle(double r)
        {
            _r = r;
        }

        public double Area()
        {
            return Math.PI * _r * _r;
        }

        public double Diameter() => 2 * _r;

        public struct Point
        {
            public int X;
            public override string ToString() { return $"{X}"; }

            public static bool operator ==(Point a, Point b) => a.X == b.X;
            public static bool operator !=(Point a, Point b) => a.X != b.X;
            public static implicit operator int(Point p) => p.X;
        }

        ~Circle()
        {
        }

        double IShape.Area() => Area();
    }

    public record Pair(int A, int B);
}
