/*
 * Geometry helpers for the sample.
 */
package com.example.geometry

import kotlin.math.sqrt

/** A point in the plane. */
data class Point(val x: Double, val y: Double) {
    /** The distance to [other]. */
    fun dist(other: Point): Double {
        val dx = x - other.x
        val dy = y - other.y
        return sqrt(dx * dx + dy * dy)
    }

    /** The distance to the origin, computed. */
    val norm: Double
        get() {
            return dist(ORIGIN)
        }

    /** A label, kept trimmed. */
    var label: String = ""
        get() {
            return field.ifEmpty { "point" }
        }
        set(value) {
            field = value.trim()
        }

    constructor(both: Double) : this(both, both) {
        require(both >= 0)
    }

    init {
        require(x.isFinite())
    }

    companion object {
        val ORIGIN = Point(0.0, 0.0)

        fun of(x: Int, y: Int): Point {
            return Point(x.toDouble(), y.toDouble())
        }
    }
}

/** Something with an area. */
interface Shape {
    fun area(): Double

    fun describe(): String {
        return "area ${area()}"
    }
}

enum class Color(val rgb: Int) {
    RED(0xff0000),
    GREEN(0x00ff00);

    fun hex(): String {
        return rgb.toString(16)
    }
}

object Registry {
    private val shapes = mutableListOf<Shape>()

    fun add(shape: Shape) {
        shapes.add(shape)
    }

    fun add(shapes: List<Shape>) {
        shapes.forEach { add(it) }
    }
}

typealias Polygon = List<Point>

/** Scales a point: an extension function. */
fun Point.scale(k: Double): Point {
    return Point(x * k, y * k)
}

fun Polygon.perimeter(): Double = zipWithNext { a, b -> a.dist(b) }.sum()

/** A polygon built by a trailing lambda, as Kotlin DSLs are. */
fun square(side: Double): Polygon = buildList {
    add(Point(0.0, 0.0))
    add(Point(side, side))
}

fun main() {
    println(Point(3.0, 4.0).norm)
}

@Target(AnnotationTarget.CLASS)
annotation class Marker
