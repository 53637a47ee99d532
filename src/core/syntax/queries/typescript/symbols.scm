; TypeScript symbols.
;
; TypeScript builds on JavaScript: the `; inherits: javascript` line stands
; for the whole of `javascript/symbols.scm` (functions, classes, methods,
; functions bound to a `const`), inserted there when the query is loaded.
; An `export` around a definition belongs to it. When two patterns give the
; same range, the earlier pattern wins.

(function_signature
  name: (identifier) @name) @definition.function

(abstract_class_declaration
  name: (type_identifier) @name) @definition.class

(class_declaration
  name: (type_identifier) @name) @definition.class

(abstract_method_signature
  name: (_) @name) @definition.method

(method_signature
  name: (_) @name) @definition.method

; A construct signature (`new (message: string): Error`) is a method named
; `new`, as ctags lists it.
(construct_signature
  "new" @name) @definition.method

(interface_declaration
  name: (type_identifier) @name) @definition.interface

(type_alias_declaration
  name: (type_identifier) @name) @definition.type

(enum_declaration
  name: (identifier) @name) @definition.enum

(internal_module
  name: (_) @name) @definition.namespace

(module
  name: (_) @name) @definition.namespace

; inherits: javascript
