; Kotlin symbols.
;
; Each pattern captures a defining node as @definition.<kind> and its name as
; @name (tree-sitter-kotlin-ng ships no tags.scm; the kinds follow
; universal-ctags' Kotlin parser). Annotations and modifiers are part of the
; declaration; the KDoc above it is its leading comment. Paths nest with dots:
; `Outer.Inner.method`; an extension function is named after its receiver
; (`Point.scale`), an unnamed companion object `Companion`, a secondary
; constructor `constructor` and an `init` block `init` (see `kotlin_swift`).
; For the same node the first pattern wins, so the specific class kinds come
; before the plain class.

(class_declaration
  "interface"
  name: (identifier) @name) @definition.interface

(class_declaration
  (modifiers (class_modifier "enum"))
  name: (identifier) @name) @definition.enum

(class_declaration
  name: (identifier) @name) @definition.class

(object_declaration
  name: (identifier) @name) @definition.class

(companion_object
  name: (identifier) @name) @definition.class

(companion_object
  "companion" @name) @definition.class

(function_declaration
  name: (identifier) @name) @definition.function

(secondary_constructor
  "constructor" @name) @definition.method

(anonymous_initializer
  "init" @name) @definition.method

; A property with a getter or setter is computed: a definition with a body.
(property_declaration
  (variable_declaration (identifier) @name)
  [(getter) (setter)]) @definition.function

; With both a getter and a setter, each accessor is a method of its own
; (`name.get`, `name.set`), so the skeleton elides both bodies.
(property_declaration
  (getter
    "get" @name) @definition.method
  (setter))

(property_declaration
  (getter)
  (setter
    "set" @name) @definition.method)

(type_alias
  type: (identifier) @name) @definition.type

; tree-sitter-kotlin-ng reads an annotation class with annotations of its
; own and no body (`@Target(...)\nannotation class Required`) as an
; expression: `annotation class Required` is its infix call.
(annotated_expression
  (infix_expression
    .
    (identifier)
    .
    (identifier)
    .
    (identifier) @name
    .)
  (#match? @definition.class "annotation\\s+class\\s+\\S+$")) @definition.class
