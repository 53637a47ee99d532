; JavaScript symbols (also read by TypeScript and TSX through
; `; inherits: javascript`).
;
; Each pattern captures a defining node as @definition.<kind> and its name as
; @name (started from tree-sitter-javascript's tags.scm). A function bound to
; a `const`/`let`/`var` (`const f = () => {}`) is a function named by the
; variable. An `export` around a definition belongs to it. When two patterns
; give the same range, the earlier pattern wins.

(function_declaration
  name: (identifier) @name) @definition.function

(generator_function_declaration
  name: (identifier) @name) @definition.function

(class_declaration
  name: (_) @name) @definition.class

(method_definition
  name: (_) @name) @definition.method

(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function
