package com.example.shapes;

import java.util.List;

/**
 * Shapes and their areas.
 */
public class Sample {
    /** The largest side. */
    public static final int MAX = 10;

    private final List<Shape> shapes;

    public Sample(List<Shape> shapes) {
        this.shapes = shapes;
    }

    /** Total area. */
    @Override
    public double total() {
        double sum = 0;
        for (Shape s : shapes) {
            sum += s.area();
        }
        return sum;
    }

    public interface Shape {
        double area();
    }

    enum Kind {
        CIRCLE, SQUARE;

        String label() {
            return name().toLowerCase();
        }
    }

    record Pair(int a, int b) {
        int sum() { return a + b; }
    }

    static class Inner {
        void run() {}
        void run(int times) {}
    }
}
