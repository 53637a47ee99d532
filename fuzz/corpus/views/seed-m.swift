// Geometry helpers for the sample.

import Foundation

/// Something with an area.
protocol Shape {
    var area: Double { get }
    func describe() -> String
}

/// A point in the plane.
struct Point: Shape {
    var x: Double
    var y: Double

    /// The area of the box to the origin, computed.
    var area: Double {
        return abs(x * y)
    }

    init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The distance to `other`.
    func dist(_ other: Point) -> Double {
        let dx = x - other.x
        let dy = y - other.y
        return (dx * dx + dy * dy).squareRoot()
    }

    func describe() -> String {
        return "(\(x), \(y))"
    }

    static func + (a: Point, b: Point) -> Point {
        return Point(x: a.x + b.x, y: a.y + b.y)
    }
}

enum Direction: String {
    case north, south

    func flipped() -> Direction {
        return self == .north ? .south : .north
    }
}

class Node<T> {
    var value: T
    var children: [Node<T>] = []

    init(value: T) {
        self.value = value
    }

    subscript(index: Int) -> Node<T> {
        return children[index]
    }

    deinit {
        children.removeAll()
    }
}

extension Point {
    /// Scaled by `k`.
    func scaled(by k: Double) -> Point {
        return Point(x: x * k, y: y * k)
    }
}

extension Point: CustomStringConvertible {
    var description: String {
        return describe()
    }
}

typealias Polygon = [Point]

func perimeter(_ points: Polygon) -> Double {
    var total = 0.0
    for (a, b) in zip(points, points.dropFirst()) {
        total += a.dist(b)
    }
    return total
}
