//! The C/C++ shapes of issue 27 that code no one here had tuned for
//! showed: one minimal fixture each, with the symbols it must yield.

use super::listing;
use crate::core::syntax::{Lang, parse, skeleton};

fn show(lang: Lang, src: &str) -> String {
    let tree = parse(lang, src);
    format!("{}note: {:?}\n", listing(&tree), tree.error_line)
}

const S1: &str = "#ifdef X\nint f(int a) {\n#else\nint f(void) {\n#endif\n    return 0;\n}\n\nint g(void) { return 1; }\n";
const S2: &str = "PVOID WINAPI GetThing(HANDLE h);\nBOOL CALLBACK EnumProc(HWND hwnd, LPARAM lp) { return TRUE; }\nNTSTATUS NTAPI NtFoo(void);\nvoid __stdcall Bar(int x) { }\nMYLIB_EXPORT int MYLIB_CALL baz(int a);\nstatic LRESULT CALLBACK WndProc(HWND h)\n{\n    return 0;\n}\n";
const S3: &str = "namespace Eigen {\ntemplate<> EIGEN_STRONG_INLINE Packet8f pload<Packet8f>(const float* from) { return x; }\ntemplate<> EIGEN_DEVICE_FUNC inline Packet4f padd<Packet4f>(const Packet4f& a,\n  const Packet4f& b) { return a; }\nEIGEN_MAKE_TYPEDEFS(int, i)\nint after(int a) { return a; }\n}\n";
const S4: &str = "template <class T>\nT *&slot(T **p) { return *p; }\nint*& get() {\n  static int *x;\n  return x;\n}\n";
const S5: &str = "API_MACRO Error::Error(const char* m) : msg_(m), data_{1, 2} {}\nvoid Error::other() {}\nint Error::third() const { return 0; }\n";
const S6: &str = "void f() {\n  MODEL(\"small\")\n  UNUSED(x)\n}\nvoid g() {}\n";
const S7: &str = "typedef struct tag { int a; } Name;\ntypedef union { int a; } U;\n";
const S8: &str = "int FN(Name)(int a) {\n  return a;\n}\nEXPORT_FN(foo)(void) { }\nint after(void) { return 0; }\n";
const S10: &str = "/* leading comment\n * two\n */\nMACRO(a) MACRO2(b) {\nint late(void);\n";

#[test]
fn shape_1_branches_that_each_open_a_brace_keep_the_first() {
    let tree = parse(Lang::C, S1);
    assert_eq!(
        show(Lang::C, S1),
        "f [function] L2-7 | int f(int a)\ng [function] L9-9 | int g(void)\nnote: None\n"
    );
    assert!(skeleton(&tree, S1).contains("int g(void) { ... }"));
}

#[test]
fn shape_2_a_calling_convention_between_type_and_name() {
    insta::assert_snapshot!(show(Lang::C, S2), @r"
    GetThing [function] L1-1 | PVOID WINAPI GetThing(HANDLE h)
    EnumProc [function] L2-2 | BOOL CALLBACK EnumProc(HWND hwnd, LPARAM lp)
    NtFoo [function] L3-3 | NTSTATUS NTAPI NtFoo(void)
    Bar [function] L4-4 | void __stdcall Bar(int x)
    baz [function] L5-5 | int MYLIB_CALL baz(int a)
    WndProc [function] L6-9 | static LRESULT CALLBACK WndProc(HWND h)
    note: None
    ");
}

#[test]
fn shape_3_a_macro_after_template_head_is_not_the_name() {
    insta::assert_snapshot!(show(Lang::Cpp, S3), @r"
    Eigen [namespace] L1-7 | namespace Eigen
    Eigen::pload<Packet8f> [function] L2-2 | template<> EIGEN_STRONG_INLINE Packet8f pload<Packet8f>(const float* from)
    Eigen::padd<Packet4f> [function] L3-4 | template<> EIGEN_DEVICE_FUNC inline Packet4f padd<Packet4f>(const Packet4f& a, const Packet4f& b)
    Eigen::after [function] L6-6 | int after(int a)
    note: None
    ");
}

#[test]
fn shape_3_signatures_stop_at_the_body_and_hold_no_directive() {
    let src = "#if X\nauto f(int a) noexcept -> R\n#else\nR f(int a) noexcept\n#endif\n{\n  return 0;\n}\n\
               int g(int a\n#ifdef B\n  , int b\n#else\n  , long b\n#endif\n) { return a; }\n";
    insta::assert_snapshot!(show(Lang::Cpp, src), @r"
    f [function] L2-8 | auto f(int a) noexcept -> R
    g [function] L9-15 | int g(int a, int b)
    note: None
    ");
}

#[test]
fn shape_4_functions_returning_a_reference_to_a_pointer() {
    let tree = parse(Lang::Cpp, S4);
    insta::assert_snapshot!(show(Lang::Cpp, S4), @r"
    slot [function] L1-2 | template <class T> T *&slot(T **p)
    get [function] L3-6 | int*& get()
    note: None
    ");
    assert!(!skeleton(&tree, S4).contains("return"));
}

#[test]
fn shape_5_a_macro_before_an_out_of_line_constructor() {
    insta::assert_snapshot!(show(Lang::Cpp, S5), @r"
    Error::Error [method] L1-1 | Error::Error(const char* m)
    Error::other [method] L2-2 | void Error::other()
    Error::third [method] L3-3 | int Error::third() const
    note: None
    ");
}

#[test]
fn shape_6_a_macro_call_inside_a_body_stays_inside() {
    insta::assert_snapshot!(show(Lang::Cpp, S6), @r"
    f [function] L1-4 | void f()
    g [function] L5-5 | void g()
    note: None
    ");
}

#[test]
fn shape_7_the_typedef_name_of_a_tagged_type_is_a_symbol() {
    insta::assert_snapshot!(show(Lang::C, S7), @r"
    struct tag [struct] L1-1 | typedef struct tag { ... } Name
    Name [typedef] L1-1 | typedef struct tag Name
    U [union] L2-2 | typedef union { ... } U
    note: None
    ");
    assert!(parse(Lang::Cpp, S7).find("Name").is_some());
}

#[test]
fn shape_8_a_function_named_by_a_macro_keeps_the_name_as_written() {
    insta::assert_snapshot!(show(Lang::C, S8), @r"
    FN(Name) [function] L1-3 | int FN(Name)(int a)
    after [function] L5-5 | int after(void)
    note: None
    ");
}

#[test]
fn shape_10_a_body_left_open_is_noted_at_its_brace() {
    insta::assert_snapshot!(show(Lang::C, S10), @r"
    MACRO2 [function] L4-5 | MACRO(a) MACRO2(b)
    note: Some(4)
    ");
}

/// Macro shapes of SDL2 and protobuf (issue 27's measured projects):
/// an attribute between a typedef's body and its name, a pointer macro
/// in a function-pointer typedef, an export macro before `const char *`,
/// a parameter annotation, a macro before a qualified return type, after
/// `explicit`, and two macros between `class` and its name.
#[test]
fn shape_2_macros_of_sdl_and_protobuf() {
    let cases = [
        (
            Lang::C,
            "typedef struct X {\n  int a;\n} SDL_AUDIOCVT_PACKED SDL_AudioCVT;\n",
        ),
        (
            Lang::C,
            "typedef EGLBoolean (EGLAPIENTRYP PFNEGLCHOOSECONFIGPROC) (EGLDisplay dpy, EGLint *n);\n",
        ),
        (
            Lang::C,
            "extern DECLSPEC const char *SDLCALL SDL_GetHint(const char *name);\n",
        ),
        (
            Lang::C,
            "extern DECLSPEC int SDLCALL SDL_SetError(SDL_PRINTF_FORMAT_STRING const char *fmt, ...) SDL_PRINTF_VARARG_FUNC(1);\n",
        ),
        (
            Lang::Cpp,
            "class A {\n public:\n  PROTOBUF_NODISCARD std::string* release_type_url();\n  explicit PROTOBUF_CONSTEXPR A(::PROTOBUF_NAMESPACE_ID::internal::ConstantInitialized);\n};\n",
        ),
        (
            Lang::Cpp,
            "class PROTOBUF_EXPORT PROTOBUF_ALIGNAS(8) Arena final {\n public:\n  Arena();\n};\n",
        ),
    ];
    let all: String = cases.iter().map(|(lang, src)| show(*lang, src)).collect();
    insta::assert_snapshot!(all, @r"
    struct X [struct] L1-3 | typedef struct X { ... } SDL_AUDIOCVT_PACKED SDL_AudioCVT
    SDL_AudioCVT [typedef] L3-3 | typedef struct X SDL_AudioCVT
    note: None
    PFNEGLCHOOSECONFIGPROC [typedef] L1-1 | typedef EGLBoolean (EGLAPIENTRYP PFNEGLCHOOSECONFIGPROC) (EGLDisplay dpy, EGLint *n)
    note: None
    SDL_GetHint [function] L1-1 | extern DECLSPEC const char *SDLCALL SDL_GetHint(const char *name)
    note: None
    SDL_SetError [function] L1-1 | extern DECLSPEC int SDLCALL SDL_SetError(SDL_PRINTF_FORMAT_STRING const char *fmt, ...)
    note: None
    A [class] L1-5 | class A
    A::release_type_url [method] L3-3 | std::string* release_type_url()
    A::A [method] L4-4 | explicit PROTOBUF_CONSTEXPR A(::PROTOBUF_NAMESPACE_ID::internal::ConstantInitialized)
    note: None
    Arena [class] L1-4 | class PROTOBUF_EXPORT PROTOBUF_ALIGNAS(8) Arena final
    Arena::Arena [method] L3-3 | Arena()
    note: None
    ");
}

/// protobuf's: a macro after a class's name, an export macro before
/// `const ::ns::T*` and before `FILE*`, macro invocations standing alone
/// in a class and at file level, a macro before a templated return type
/// (xsimd's), in an explicit instantiation and before `typename`.
#[test]
fn shape_3_macros_of_protobuf_headers() {
    let cases = [
        "class PROTOBUF_EXPORT GzipInputStream PROTOBUF_FUTURE_FINAL\n    : public ZeroCopyInputStream {\n public:\n  GzipInputStream();\n};\n",
        "namespace p {\nPROTOBUF_EXPORT const ::PROTOBUF_NAMESPACE_ID::EnumDescriptor* Field_Kind_descriptor();\nPROTOBUF_EXPORT FILE* fopen(const char* path, const char* mode);\n}\n",
        "class D {\n PROTOBUF_DEFINE_NAME_ACCESSOR(Descriptor)\n  const std::string& name() const;\n};\nMAP_HANDLER(STRING)\nMAP_HANDLER(BYTES)\nint after();\n",
        "template <class T, class A>\ninline XSIMD_NO_DISCARD batch<T, A> batch<T, A>::broadcast(U val) noexcept\n{\n  return 0;\n}\n",
        "extern template class PROTOBUF_EXPORT_TEMPLATE_DECLARE RepeatedField<bool>;\nclass R {\n  PROTOBUF_NODISCARD typename TypeHandler::Type* ReleaseLast() {\n    return 0;\n  }\n};\n",
    ];
    let all: String = cases.iter().map(|src| show(Lang::Cpp, src)).collect();
    insta::assert_snapshot!(all, @r"
    GzipInputStream [class] L1-5 | class PROTOBUF_EXPORT GzipInputStream PROTOBUF_FUTURE_FINAL : public ZeroCopyInputStream
    GzipInputStream::GzipInputStream [method] L4-4 | GzipInputStream()
    note: None
    p [namespace] L1-4 | namespace p
    p::Field_Kind_descriptor [function] L2-2 | const ::PROTOBUF_NAMESPACE_ID::EnumDescriptor* Field_Kind_descriptor()
    p::fopen [function] L3-3 | FILE* fopen(const char* path, const char* mode)
    note: None
    D [class] L1-4 | class D
    D::name [method] L3-3 | const std::string& name() const
    after [function] L7-7 | int after()
    note: None
    batch::broadcast [method] L1-5 | template <class T, class A> inline XSIMD_NO_DISCARD batch<T, A> batch<T, A>::broadcast(U val) noexcept
    note: None
    R [class] L2-6 | class R
    R::ReleaseLast [method] L3-5 | typename TypeHandler::Type* ReleaseLast()
    note: None
    ");
}

/// Issue 36's C declarations that ctags reads and the walk did not:
/// functions returning a pointer to a function (OpenSSL's
/// `BIO_meth_get_read`), a function type's typedef, the second name of a
/// typedef, and names the grammar takes for primitive types.
const S11: &str = "int (*BIO_meth_get_read(const BIO_METHOD *biom))(BIO *, char *, int);\nchar *(*get_prompt(const UI_METHOD *m))(UI *);\nint (*nist_mod(const BIGNUM *p))(BIGNUM *r) { return 0; }\ntypedef int(OSSL_CALLBACK)(const OSSL_PARAM params[], void *arg);\ntypedef PVOID CONDITION_VARIABLE, *PCONDITION_VARIABLE;\ntypedef signed char int8_t;\n";

#[test]
fn shape_11_functions_returning_function_pointers_and_more_typedefs() {
    insta::assert_snapshot!(show(Lang::C, S11), @r"
    BIO_meth_get_read [function] L1-1 | int (*BIO_meth_get_read(const BIO_METHOD *biom))(BIO *, char *, int)
    get_prompt [function] L2-2 | char *(*get_prompt(const UI_METHOD *m))(UI *)
    nist_mod [function] L3-3 | int (*nist_mod(const BIGNUM *p))(BIGNUM *r)
    OSSL_CALLBACK [typedef] L4-4 | typedef int(OSSL_CALLBACK)(const OSSL_PARAM params[], void *arg)
    CONDITION_VARIABLE [typedef] L5-5 | typedef PVOID CONDITION_VARIABLE, *PCONDITION_VARIABLE
    PCONDITION_VARIABLE [typedef] L5-5 | typedef PVOID *PCONDITION_VARIABLE
    int8_t [typedef] L6-6 | typedef signed char int8_t
    note: None
    ");
}

/// Eigen's `conditional<N>=4, A, B>`: a comparison as a template's first
/// argument (`>=` is one token, so the `<` is not closed there), read as
/// the compiler reads it.
const S12: &str = "template <int N> struct Picker {\n  typedef typename conditional<N>=4, A, B>::type type;\n  typedef typename conditional<Traits::Progress>=8,typename H<S>::half,S>::type Half;\n};\nint after() { return 0; }\n";

#[test]
fn shape_12_a_comparison_as_a_templates_first_argument() {
    insta::assert_snapshot!(show(Lang::Cpp, S12), @r"
    Picker [struct] L1-4 | template <int N> struct Picker
    Picker::type [typedef] L2-2 | typedef typename conditional<N>=4, A, B>::type type
    Picker::Half [typedef] L3-3 | typedef typename conditional<Traits::Progress>=8,typename H<S>::half,S>::type Half
    after [function] L5-5 | int after()
    note: None
    ");
}

/// Catch2's C++/CLI branch (`#if defined(_MANAGED)`): a handle `T^` in a
/// parameter list or a template's arguments is read as the type `T`; the
/// same `^` outside such a branch is C++'s (xor).
const S13: &str = "#if defined(_MANAGED)\ntemplate<typename T>\nstd::string clrReferenceToString( T^ ref ) {\n    if (ref == nullptr)\n        return std::string(\"null\");\n    return std::string(ref->ToString());\n}\ntemplate <typename T>\nstruct StringMaker<T^> {\n    static std::string convert( T^ ref ) { return clrReferenceToString(ref); }\n};\n#endif\nint mix(int a, int b) { return a^ b; }\n";

#[test]
fn shape_13_a_cli_handle_in_a_managed_branch() {
    insta::assert_snapshot!(show(Lang::Cpp, S13), @r"
    clrReferenceToString [function] L2-7 | template<typename T> std::string clrReferenceToString(T^ ref)
    StringMaker<T^> [struct] L8-11 | template <typename T> struct StringMaker<T^>
    StringMaker<T^>::convert [method] L10-10 | static std::string convert(T^ ref)
    mix [function] L13-13 | int mix(int a, int b)
    note: None
    ");
}
