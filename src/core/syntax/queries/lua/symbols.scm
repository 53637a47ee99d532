; Lua symbols.
;
; Each pattern captures a defining node as @definition.<kind> and its name as
; @name (started from tree-sitter-lua's tags.scm). A function's path is its
; name as written: `f`, `M.f`, `M:method` (the colon form takes `self`, so it
; is a method); a function assigned to a variable or a table field is named
; by that variable or field.

(function_declaration
  name: [(identifier) (dot_index_expression)] @name) @definition.function

(function_declaration
  name: (method_index_expression) @name) @definition.method

(assignment_statement
  (variable_list
    .
    name: [(identifier) (dot_index_expression)] @name)
  (expression_list
    .
    value: (function_definition))) @definition.function

(field
  name: (identifier) @name
  value: (function_definition)) @definition.function
