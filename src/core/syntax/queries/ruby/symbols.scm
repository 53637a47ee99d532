; Ruby symbols.
;
; Each pattern captures a defining node as @definition.<kind> and its name as
; @name (started from tree-sitter-ruby's tags.scm). Paths are Ruby's own
; notation: `Outer::Inner` for classes and modules, `Class#method` for an
; instance method, `Class.method` for a singleton method (`def self.x`, or a
; `def` inside `class << self`). A `def` is a function at the top level and
; a method in a class or module.

(class
  name: [(constant) (scope_resolution)] @name) @definition.class

(module
  name: [(constant) (scope_resolution)] @name) @definition.module

(method
  name: (_) @name) @definition.function

(singleton_method
  name: (_) @name) @definition.method
