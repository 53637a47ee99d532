; Bash symbols: the script's functions (`f() { ... }`, `function f { ... }`).
; The comment lines above a function are its leading comment.

(function_definition
  name: (word) @name) @definition.function
