; C symbols.
;
; Each pattern captures a defining node as @definition.<kind> and its name as
; @name. The extractor widens a captured struct/union/enum to the declaration
; or typedef it sits in and adds a trailing `;`. When two patterns give the
; same range, the earlier pattern wins: a `typedef struct Tag {...} T;` is the
; struct `struct Tag`, not the typedef `T`.

; Function definitions, returning values or (double) pointers.
(function_definition
  declarator: [
    (function_declarator
      declarator: (identifier) @name)
    (pointer_declarator
      declarator: (function_declarator
        declarator: (identifier) @name))
    (pointer_declarator
      declarator: (pointer_declarator
        declarator: (function_declarator
          declarator: (identifier) @name)))
    (function_declarator
      declarator: (parenthesized_declarator
        (pointer_declarator
          declarator: (function_declarator
            declarator: (identifier) @name))))
    (pointer_declarator
      declarator: (function_declarator
        declarator: (parenthesized_declarator
          (pointer_declarator
            declarator: (function_declarator
              declarator: (identifier) @name)))))
  ]) @definition.function

; Functions whose name a macro makes (`int FN(Name)(int a) { ... }`, the
; "template by include" pattern), named as written: `FN(Name)`.
(function_definition
  declarator: [
    (function_declarator
      declarator: (function_declarator) @name)
    (pointer_declarator
      declarator: (function_declarator
        declarator: (function_declarator) @name))
  ]) @definition.function

; Prototypes (`int (lua_gettop) (lua_State *L)` included).
(declaration
  declarator: [
    (function_declarator
      declarator: (identifier) @name)
    (function_declarator
      declarator: (parenthesized_declarator (identifier) @name))
    (pointer_declarator
      declarator: (function_declarator
        declarator: (parenthesized_declarator (identifier) @name)))
    (pointer_declarator
      declarator: (function_declarator
        declarator: (identifier) @name))
    (pointer_declarator
      declarator: (pointer_declarator
        declarator: (function_declarator
          declarator: (identifier) @name)))
    ; Returning a pointer to a function: `int (*f(const M *m))(int)`.
    (function_declarator
      declarator: (parenthesized_declarator
        (pointer_declarator
          declarator: (function_declarator
            declarator: (identifier) @name))))
    (pointer_declarator
      declarator: (function_declarator
        declarator: (parenthesized_declarator
          (pointer_declarator
            declarator: (function_declarator
              declarator: (identifier) @name)))))
  ]) @definition.function

; Tagged types with a body.
(struct_specifier
  name: (type_identifier) @name
  body: (_)) @definition.struct

(union_specifier
  name: (type_identifier) @name
  body: (_)) @definition.union

(enum_specifier
  name: (type_identifier) @name
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

; Other typedefs: plain, pointer and function-pointer types; a name the
; grammar takes for a primitive type (`typedef signed char int8_t;`).
(type_definition
  declarator: [
    (type_identifier) @name
    (primitive_type) @name
    (pointer_declarator
      declarator: (type_identifier) @name)
    (pointer_declarator
      declarator: (pointer_declarator
        declarator: (type_identifier) @name))
    (pointer_declarator
      declarator: (pointer_declarator
        declarator: (pointer_declarator
          declarator: (type_identifier) @name)))
    (array_declarator
      declarator: (type_identifier) @name)
    (function_declarator
      declarator: (type_identifier) @name)
    (function_declarator
      declarator: (parenthesized_declarator
        (pointer_declarator
          declarator: (type_identifier) @name)))
    (pointer_declarator
      declarator: (function_declarator
        declarator: (type_identifier) @name))
    ; A function type: `typedef int(OSSL_CALLBACK)(const OSSL_PARAM p[]);`.
    (function_declarator
      declarator: (parenthesized_declarator (type_identifier) @name))
    (pointer_declarator
      declarator: (function_declarator
        declarator: (parenthesized_declarator
          (pointer_declarator
            declarator: (type_identifier) @name))))
  ]) @definition.typedef

; Object-like macros with a value (`#define BUFSIZ 8192`).
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
