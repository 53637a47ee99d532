; TSX symbols: TypeScript's, with JSX in expressions.

; inherits: typescript
