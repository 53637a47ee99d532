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

; A named class expression (`module.exports = class Application extends
; Emitter {`) is a class named by its own name.
(class
  name: (_) @name) @definition.class

; A named function expression (`return function curried() {}`,
; `defineGetter(req, 'host', function host() {})`) is named by its own name.
(function_expression
  name: (identifier) @name) @definition.function

; Top-level objects bound to a name (`const adapters = { ... }`): the
; modules' tables of functions, which ctags lists as classes.
(program
  [(lexical_declaration
     (variable_declarator
       name: (identifier) @name
       value: (object)))
   (variable_declaration
     (variable_declarator
       name: (identifier) @name
       value: (object)))] @definition.constant)

(program
  (export_statement
    declaration: (lexical_declaration
      (variable_declarator
        name: (identifier) @name
        value: (object))) @definition.constant))

; A module's singleton (`export const focusManager = new FocusManager()`):
; what the rest of the code imports by that name. A built-in collection
; or value (`new Set([...])`, `new Map()`) is data, not a singleton.
(program
  (lexical_declaration
    (variable_declarator
      name: (identifier) @name
      value: (new_expression
        constructor: (identifier) @_constructor))) @definition.constant
  (#not-match? @_constructor "^(Map|Set|WeakMap|WeakSet|WeakRef|Array|Object|RegExp|Date|Error|[A-Z][a-z]*Error|Promise|Proxy|URL|URLSearchParams|TextEncoder|TextDecoder|ArrayBuffer|DataView|[A-Z][a-z0-9]*Array)$"))

(program
  (export_statement
    declaration: (lexical_declaration
      (variable_declarator
        name: (identifier) @name
        value: (new_expression
          constructor: (identifier) @_constructor))) @definition.constant)
  (#not-match? @_constructor "^(Map|Set|WeakMap|WeakSet|WeakRef|Array|Object|RegExp|Date|Error|[A-Z][a-z]*Error|Promise|Proxy|URL|URLSearchParams|TextEncoder|TextDecoder|ArrayBuffer|DataView|[A-Z][a-z0-9]*Array)$"))

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

; Functions assigned to a name or a property (`app.listen = function () {}`,
; `exports.f = () => {}`) and object-literal entries holding functions
; (`{ parse: function () {} }`), as tree-sitter-javascript's tags.scm has
; them: older libraries define most of their API this way.
(expression_statement
  (assignment_expression
    left: [
      (identifier) @name
      (member_expression
        property: (property_identifier) @name)
    ]
    right: [(arrow_function) (function_expression) (generator_function)])) @definition.function

(pair
  key: (property_identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
