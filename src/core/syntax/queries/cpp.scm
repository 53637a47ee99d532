; C++ symbols.
;
; Each pattern captures a defining node as @definition.<kind> and its name as
; @name. The extractor widens a definition to the `template <...>`
; declaration(s) around it, to the declaration or typedef a class/struct
; sits in, and adds a trailing `;`. A templated entity therefore keeps the
; kind of what it defines (class, function, ...); its signature starts with
; `template <...>`. Functions inside a class become methods, and so do
; out-of-line definitions `void ns::Class::f() {}` whose scope is not a
; namespace of the file. When two patterns give the same range, the earlier
; pattern wins.

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

; Anonymous types with a body, named by their typedef.
(type_definition
  type: (struct_specifier
    !name
    body: (_))
  declarator: (type_identifier) @name) @definition.struct

(type_definition
  type: (union_specifier
    !name
    body: (_))
  declarator: (type_identifier) @name) @definition.union

(type_definition
  type: (enum_specifier
    !name
    body: (_))
  declarator: (type_identifier) @name) @definition.enum

; Typedefs and aliases.
(type_definition
  declarator: [
    (type_identifier) @name
    (pointer_declarator
      declarator: (type_identifier) @name)
    (function_declarator
      declarator: (parenthesized_declarator
        (pointer_declarator
          declarator: (type_identifier) @name)))
  ]) @definition.typedef

(alias_declaration
  name: (type_identifier) @name) @definition.typedef

; Object-like macros with a value.
(preproc_def
  name: (identifier) @name
  value: (_)) @definition.constant

; Prototypes tree-sitter could only read as an error, mostly because an
; unknown attribute macro follows them (`int f (void) MY_ATTR;`). The
; extractor takes the type tokens before the declarator into the range.
(ERROR
  [
    (function_declarator
      declarator: (identifier) @name)
    (pointer_declarator
      declarator: (function_declarator
        declarator: (identifier) @name))
  ] @definition.function)
