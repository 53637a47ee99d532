; C++ symbols.
;
; Each pattern captures a defining node as @definition.<kind> and its name as
; @name. C++ builds on C: the `; inherits: c` line at the end stands for the
; whole of `c.scm` (anonymous types named by their typedef, typedefs,
; object-like macros, prototypes read as errors), inserted there when the
; query is loaded, as helix's `; inherits:` does. The extractor widens a
; definition to the `template <...>` declaration(s) around it, to the
; declaration or typedef a class/struct sits in, and adds a trailing `;`. A
; templated entity therefore keeps the kind of what it defines (class,
; function, ...); its signature starts with `template <...>`. Functions
; inside a class become methods, and so do out-of-line definitions
; `void ns::Class::f() {}` whose scope is not a namespace of the file. When
; two patterns give the same range, the earlier pattern wins.

; Function definitions (free functions, inline methods, out-of-line methods).
(function_definition
  declarator: [
    (function_declarator
      declarator: [(identifier) (field_identifier) (qualified_identifier)
                   (operator_name) (destructor_name) (template_function)] @name)
    (pointer_declarator
      declarator: (function_declarator
        declarator: [(identifier) (field_identifier) (qualified_identifier)
                     (operator_name) (template_function)] @name))
    (pointer_declarator
      declarator: (pointer_declarator
        declarator: (function_declarator
          declarator: [(identifier) (field_identifier) (qualified_identifier)
                       (operator_name) (template_function)] @name)))
    (reference_declarator
      (function_declarator
        declarator: [(identifier) (field_identifier) (qualified_identifier)
                     (operator_name) (template_function)] @name))
    ; `T *&slot(T **p)`: a reference to a pointer.
    (pointer_declarator
      declarator: (reference_declarator
        (function_declarator
          declarator: [(identifier) (field_identifier) (qualified_identifier)
                       (operator_name) (template_function)] @name)))
  ]) @definition.function

; Conversion operators (`operator bool() const`), in a class and out of
; line; the name is `operator <type>`.
(function_definition
  declarator: [(operator_cast)
               (qualified_identifier name: (operator_cast))] @name) @definition.function

(declaration
  declarator: (operator_cast) @name) @definition.function

(field_declaration
  declarator: (operator_cast) @name) @definition.function

; Prototypes: free functions, constructors and destructors in a class.
(declaration
  declarator: [
    (function_declarator
      declarator: [(identifier) (qualified_identifier) (operator_name)
                   (destructor_name) (template_function)] @name)
    (function_declarator
      declarator: (parenthesized_declarator (identifier) @name))
    (pointer_declarator
      declarator: (function_declarator
        declarator: [(identifier) (qualified_identifier) (operator_name)] @name))
    (reference_declarator
      (function_declarator
        declarator: [(identifier) (qualified_identifier) (operator_name)] @name))
    (pointer_declarator
      declarator: (reference_declarator
        (function_declarator
          declarator: [(identifier) (qualified_identifier) (operator_name)] @name)))
  ]) @definition.function

; Method prototypes in a class body.
(field_declaration
  declarator: [
    (function_declarator
      declarator: [(field_identifier) (operator_name) (destructor_name)
                   (template_function)] @name)
    (pointer_declarator
      declarator: (function_declarator
        declarator: [(field_identifier) (operator_name)] @name))
    (reference_declarator
      (function_declarator
        declarator: [(field_identifier) (operator_name)] @name))
    (pointer_declarator
      declarator: (reference_declarator
        (function_declarator
          declarator: [(field_identifier) (operator_name)] @name)))
  ]) @definition.function

(namespace_definition
  name: [(namespace_identifier) (nested_namespace_specifier)] @name
  body: (_)) @definition.namespace

; Types with a body (`template_type` names are specializations).
(class_specifier
  name: [(type_identifier) (template_type) (qualified_identifier)] @name
  body: (_)) @definition.class

(struct_specifier
  name: [(type_identifier) (template_type) (qualified_identifier)] @name
  body: (_)) @definition.struct

(union_specifier
  name: [(type_identifier) (template_type) (qualified_identifier)] @name
  body: (_)) @definition.union

(enum_specifier
  name: [(type_identifier) (qualified_identifier)] @name
  body: (_)) @definition.enum

; Aliases (typedefs, plain and with anonymous types, come from C).
(alias_declaration
  name: (type_identifier) @name) @definition.typedef

; Everything C has: anonymous types named by their typedef, typedefs,
; object-like macros, prototypes read as errors, C-style functions. Placed
; last, so that for the same range a C++ pattern above wins.
; inherits: c
