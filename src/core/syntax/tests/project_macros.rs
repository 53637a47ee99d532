//! Issue 36: C and C++ read with the project's own macros. Each fixture
//! is a small project: a header that defines the macro (no built-in list
//! entry names it) and a file that uses it in a declaration. The golden
//! symbol tree is that of the file parsed with the project's macros; each
//! test also checks what the built-in list alone gets wrong.

use insta::assert_snapshot;

use super::listing;
use crate::core::syntax::{CMacros, Lang, SymbolTree, parse, parse_with};

/// `file` parsed as `lang` with the macros of `header` and of itself.
fn with_project(lang: Lang, header: &str, file: &str) -> SymbolTree {
    let macros = CMacros::default().with_texts([header, file]);
    parse_with(lang, file, &macros)
}

/// The symbol tree, or the error line when the parse hit one.
fn golden(tree: &SymbolTree) -> String {
    let mut out = listing(tree);
    if let Some(line) = tree.error_line {
        out.push_str(&format!("syntax error at line {line}\n"));
    }
    out
}

#[test]
fn an_attribute_macro_with_an_argument_is_seen_through() {
    let header = "#if defined(__GNUC__) && defined(__x86_64__)\n#define BROTLI_MODEL(M) __attribute__((model(M)))\n#else\n#define BROTLI_MODEL(M) /* M */\n#endif\n";
    let file = "#include \"platform.h\"\n\nstatic const BROTLI_MODEL(\"small\")\nuint8_t kBrotliDictionaryData[] = {\n  116, 105, 109, 101\n};\n\nconst BrotliDictionary* BrotliGetDictionary(void) {\n  return &kBrotliDictionary;\n}\n";
    let tree = with_project(Lang::C, header, file);
    assert!(!tree.has_errors);
    assert!(tree.find("BrotliGetDictionary").is_some());
    assert!(parse(Lang::C, file).has_errors);
    assert_snapshot!(golden(&tree));
}

#[test]
fn function_specifier_macros_around_a_member_are_seen_through() {
    let header = "#if defined(__CUDACC__)\n#define EIGEN_DEVICE_FUNC __host__ __device__\n#else\n#define EIGEN_DEVICE_FUNC\n#endif\n#ifdef _MSC_VER\n#define EIGEN_STRONG_INLINE __forceinline\n#else\n#define EIGEN_STRONG_INLINE inline\n#endif\n#if EIGEN_HAS_CXX11\n#define EIGEN_NOEXCEPT noexcept\n#else\n#define EIGEN_NOEXCEPT\n#endif\n";
    let file = "namespace Eigen {\ntemplate<typename Derived> class DenseBase {\n  public:\n    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE Index size() const EIGEN_NOEXCEPT { return rows() * cols(); }\n    EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE\n    Index outerSize() const EIGEN_NOEXCEPT {\n      return rows();\n    }\n};\n}\n";
    let tree = with_project(Lang::Cpp, header, file);
    assert!(!tree.has_errors);
    assert!(tree.find("Eigen::DenseBase::size").is_some());
    assert!(tree.find("Eigen::DenseBase::outerSize").is_some());
    assert_snapshot!(golden(&tree));
}

#[test]
fn an_inline_macro_before_an_out_of_line_constructor_is_seen_through() {
    let header = "#ifdef SPDLOG_COMPILED_LIB\n#    undef SPDLOG_HEADER_ONLY\n#    define SPDLOG_INLINE\n#else\n#    define SPDLOG_INLINE inline\n#endif\n";
    let file = "#pragma once\n\n#include <spdlog/async_logger.h>\n\nSPDLOG_INLINE spdlog::async_logger::async_logger(std::string logger_name,\n                                                 sinks_init_list sinks_list)\n    : async_logger(std::move(logger_name), sinks_list.begin(), sinks_list.end()) {}\n\nSPDLOG_INLINE void spdlog::async_logger::flush_() {\n    backend_flush_();\n}\n";
    let tree = with_project(Lang::Cpp, header, file);
    assert!(!tree.has_errors);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["async_logger", "flush_"]);
    assert_snapshot!(golden(&tree));
}

#[test]
fn an_export_macro_after_an_attribute_is_seen_through() {
    let header = "#ifdef SPDLOG_COMPILED_LIB\n#    if defined(_WIN32)\n#        define SPDLOG_API __declspec(dllexport)\n#    else\n#        define SPDLOG_API __attribute__((visibility(\"default\")))\n#    endif\n#else\n#    define SPDLOG_API\n#endif\n";
    let file = "namespace spdlog {\n[[noreturn]] SPDLOG_API void throw_spdlog_ex(const std::string &msg, int last_errno);\n[[noreturn]] SPDLOG_API void throw_spdlog_ex(std::string msg);\n}\n";
    let tree = with_project(Lang::Cpp, header, file);
    assert!(!tree.has_errors);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["spdlog", "throw_spdlog_ex", "throw_spdlog_ex"]);
    assert_snapshot!(golden(&tree));
}

#[test]
fn an_initializer_macro_is_read_as_a_braced_initializer() {
    let header = "#if !defined(SPDLOG_LEVEL_NAMES)\n#    define SPDLOG_LEVEL_NAMES                                                                  \\\n        { \"trace\", \"debug\", \"info\", \"warning\", \"error\", \"critical\", \"off\" }\n#endif\n#define SPDLOG_INLINE inline\n#define SPDLOG_NOEXCEPT noexcept\n";
    let file = "namespace spdlog {\nnamespace level {\n\nstatic string_view_t level_string_views[] SPDLOG_LEVEL_NAMES;\n\nSPDLOG_INLINE const string_view_t &to_string_view(spdlog::level::level_enum l) SPDLOG_NOEXCEPT {\n    return level_string_views[l];\n}\n}\n}\n";
    let tree = with_project(Lang::Cpp, header, file);
    assert!(!tree.has_errors);
    assert!(tree.find("spdlog::level::to_string_view").is_some());
    assert!(parse(Lang::Cpp, file).has_errors);
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_namespace_opened_by_a_macro_is_a_namespace() {
    let header = "#if defined(_MSC_VER)\n#    define PYBIND11_PRAGMA(...) __pragma(__VA_ARGS__)\n#    define PYBIND11_WARNING_PUSH PYBIND11_PRAGMA(warning(push))\n#else\n#    define PYBIND11_PRAGMA(...) _Pragma(#__VA_ARGS__)\n#    define PYBIND11_WARNING_PUSH PYBIND11_PRAGMA(GCC diagnostic push)\n#endif\n#define PYBIND11_NAMESPACE_BEGIN(name)                                                            \\\n    namespace name {                                                                              \\\n    PYBIND11_WARNING_PUSH\n\n#define PYBIND11_NAMESPACE_END(name)                                                              \\\n    }\n";
    let file = "PYBIND11_NAMESPACE_BEGIN(pybind11)\nPYBIND11_NAMESPACE_BEGIN(detail)\n\nclass type_caster_generic {\npublic:\n    bool load(handle src, bool convert);\n};\n\nPYBIND11_NAMESPACE_END(detail)\n\ninline void keep_alive_impl(handle nurse, handle patient) {}\n\nPYBIND11_NAMESPACE_END(pybind11)\n";
    let tree = with_project(Lang::Cpp, header, file);
    assert!(!tree.has_errors);
    assert!(
        tree.find("pybind11::detail::type_caster_generic::load")
            .is_some()
    );
    assert!(tree.find("pybind11::keep_alive_impl").is_some());
    assert!(
        parse(Lang::Cpp, file)
            .find("pybind11::keep_alive_impl")
            .is_none()
    );
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_generator_macro_leaves_the_next_definition_alone() {
    let header = "#define RB_GENERATE_STATIC(name, type, field, cmp)\t\t\t\\\n\tRB_GENERATE_INTERNAL(name, type, field, cmp, static)\n#define RB_GENERATE_INTERNAL(name, type, field, cmp, attr)\t\t\\\nattr void\t\t\t\t\t\t\t\t\\\nname##_RB_INSERT_COLOR(struct name *head, struct type *elm)\t\t\\\n{\t\t\t\t\t\t\t\t\t\\\n}\n";
    let file = "static int uv__signal_compare(uv_signal_t* w1, uv_signal_t* w2);\n\nRB_GENERATE_STATIC(uv__signal_tree_s,\n                   uv_signal_s, tree_entry,\n                   uv__signal_compare)\n\nstatic void uv__signal_global_init(void) {\n  uv__signal_global_reinit();\n}\n";
    let tree = with_project(Lang::C, header, file);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["uv__signal_compare", "uv__signal_global_init"]);
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_project_definition_wins_over_the_built_in_list() {
    // `__THROW` is listed (blanked); a project that defines it as a
    // keyword of its own is read as it says.
    let header = "#define __THROW inline\n";
    let file = "static __THROW int f(void) { return 0; }\n";
    let tree = with_project(Lang::C, header, file);
    assert!(tree.find("f").is_some());
    let text =
        crate::core::syntax::preprocessed(Lang::C, file, &CMacros::default().with_texts([header]));
    assert_eq!(text, "static inline  int f(void) { return 0; }\n");
}

#[test]
fn a_macro_pasting_its_argument_into_a_name_names_the_function_by_it() {
    let header = "#define EXPAND_CAT(a, b) CAT(a, b)\n#define CAT(a, b) a ## b\n#define FN(X) EXPAND_CAT(X, HASHER())\n";
    let file = "typedef struct FN(Slot) {\n  uint16_t delta;\n} FN(Slot);\n\nstatic BROTLI_INLINE size_t FN(HashTypeLength)(void) { return 4; }\n";
    let tree = with_project(Lang::C, header, file);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Slot", "HashTypeLength"]);
    assert!(!tree.has_errors);
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_macro_of_whole_declarations_alone_on_its_line_is_blanked_with_its_specifier() {
    // Eigen's `EIGEN_DENSE_PUBLIC_INTERFACE` expands to another macro and
    // typedefs (the table cannot write it); GLib's `G_DECLARE_INTERFACE`
    // to functions with bodies, after `GLIB_AVAILABLE_IN_2_72`, which
    // the project defines as `extern`.
    let header = "#define EIGEN_GENERIC_PUBLIC_INTERFACE(Derived) \\\n  typedef typename Eigen::internal::traits<Derived>::Scalar Scalar; \\\n  using Base::derived;\n#define EIGEN_DENSE_PUBLIC_INTERFACE(Derived) \\\n  EIGEN_GENERIC_PUBLIC_INTERFACE(Derived) \\\n  typedef typename Base::PacketScalar PacketScalar;\n#define _GLIB_EXTERN extern\n#define GLIB_AVAILABLE_IN_2_72 _GLIB_EXTERN\n#define G_DECLARE_INTERFACE(Name, name, MODULE, OBJ) \\\n  GType name##_get_type (void); \\\n  static inline Name * MODULE##_##OBJ (gpointer ptr) { \\\n    return G_CAST (ptr, name##_get_type (), Name); }\n";
    let file = "namespace Eigen {\ntemplate<typename Derived> class CwiseNullaryOp : public Base {\n  public:\n    typedef Base Base;\n    EIGEN_DENSE_PUBLIC_INTERFACE(CwiseNullaryOp)\n    Index rows() const { return m_rows; }\n};\n}\nGLIB_AVAILABLE_IN_2_72\nG_DECLARE_INTERFACE(GDebugController, g_debug_controller, G, DEBUG_CONTROLLER)\nGLIB_AVAILABLE_IN_2_72\nvoid g_debug_controller_set (GDebugController *self);\n";
    let tree = with_project(Lang::Cpp, header, file);
    assert!(!tree.has_errors);
    assert!(tree.find("Eigen::CwiseNullaryOp::rows").is_some());
    assert!(tree.find("g_debug_controller_set").is_some());
    let text = crate::core::syntax::preprocessed(
        Lang::Cpp,
        file,
        &CMacros::default().with_texts([header, file]),
    );
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    assert_eq!(
        lines[4..11],
        [
            "",
            "Index rows() const { return m_rows; }",
            "};",
            "}",
            "",
            "",
            "extern"
        ]
    );
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_macro_that_expands_to_a_type_is_read_as_one() {
    // Eigen's return-type macros paste names through `EIGEN_CAT`; AltiVec's
    // `__UNPACK_TYPE__` is a dependent type.
    let header = "#define EIGEN_CAT2(a,b) a ## b\n#define EIGEN_CAT(a,b) EIGEN_CAT2(a,b)\n#define EIGEN_CWISE_BINARY_RETURN_TYPE(LHS,RHS,OPNAME) \\\n    CwiseBinaryOp< \\\n      EIGEN_CAT(EIGEN_CAT(internal::scalar_,OPNAME),_op)< \\\n          typename internal::traits<LHS>::Scalar, \\\n          typename internal::traits<RHS>::Scalar \\\n      >, \\\n      const LHS, \\\n      const RHS \\\n    >\n#define EIGEN_MATHFUNC_RETVAL(func, scalar) typename Eigen::internal::func##_retval<typename Eigen::internal::global_math_functions_filtering_base<scalar>::type>::type\n#define __UNPACK_TYPE__(PACKETNAME) typename unpacket_traits<PACKETNAME>::type\n#define EIGEN_STRONG_INLINE inline\n";
    let file = "namespace Eigen {\ntypedef EIGEN_CWISE_BINARY_RETURN_TYPE(Derived,OtherDerived,product) ProductReturnType;\ntemplate<typename Scalar> inline EIGEN_MATHFUNC_RETVAL(random, Scalar) random(const Scalar& x, const Scalar& y);\ntemplate<typename Packet>\nEIGEN_STRONG_INLINE Packet pload_common(const __UNPACK_TYPE__(Packet)* from)\n{\n  return vec_xl(0, from);\n}\n}\n";
    let tree = with_project(Lang::Cpp, header, file);
    assert!(!tree.has_errors);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        ["Eigen", "ProductReturnType", "random", "pload_common"]
    );
    assert!(parse(Lang::Cpp, file).has_errors);
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_macro_that_declares_a_variable_by_pasting_names_it_by_the_argument() {
    let header = "#define _EIGEN_DECLARE_CONST_FAST_Packet4f(NAME,X) \\\n  Packet4f p4f_##NAME = {X, X, X, X}\n";
    let file = "namespace Eigen {\nstatic _EIGEN_DECLARE_CONST_FAST_Packet4f(ZERO, 0); //{ 0.0, 0.0, 0.0, 0.0}\ntemplate<> inline Packet4f pset1<Packet4f>(const float& from) { return vec_splats(from); }\n}\n";
    let tree = with_project(Lang::Cpp, header, file);
    assert!(!tree.has_errors);
    assert!(tree.find("Eigen::pset1<Packet4f>").is_some());
    let text = crate::core::syntax::preprocessed(
        Lang::Cpp,
        file,
        &CMacros::default().with_texts([header, file]),
    );
    assert_eq!(
        text.lines().nth(1),
        Some("static int                                ZERO    ; //{ 0.0, 0.0, 0.0, 0.0}")
    );
    assert_snapshot!(golden(&tree));
}

#[test]
fn an_exception_specification_macro_with_arguments_is_written() {
    let header =
        "#define EIGEN_NOEXCEPT_IF(x) noexcept(x)\n#define EIGEN_NO_THROW noexcept(true)\n";
    let file = "class Array {\n    Array& operator=(Array&& other) EIGEN_NOEXCEPT_IF(std::is_nothrow_move_assignable<Scalar>::value)\n    {\n      return *this;\n    }\n    Array() EIGEN_NO_THROW : m_rows(0) {}\n};\n";
    let tree = with_project(Lang::Cpp, header, file);
    assert!(!tree.has_errors);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Array", "operator=", "Array"]);
    assert!(parse(Lang::Cpp, file).has_errors);
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_pasting_macro_after_a_function_body_is_no_typedef_name() {
    // libuv's tests: `TEST_IMPL(name) {` after a function's `}` is read
    // as it was without the project's macros (not `} FN(Slot);`).
    let header = "#define TEST_IMPL(name) \\\n  int run_test_##name(void); \\\n  int run_test_##name(void)\n";
    let file = "static void close_cb(uv_handle_t* handle) {\n  close_cb_called++;\n}\n\nTEST_IMPL(active) {\n  return 0;\n}\n";
    let tree = with_project(Lang::C, header, file);
    assert!(!tree.has_errors);
    assert_eq!(tree.error_line, parse(Lang::C, file).error_line);
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_function_that_a_branch_defines_away_keeps_its_name() {
    // sqlite's amalgamation, libevent's `check_evportop`: the function is
    // declared in one branch, defined away as a macro in the other.
    let header = "#ifdef SQLITE_OMIT_VIRTUALTABLE\n#  define sqlite3VtabClear(D,T)\n#  define sqlite3VtabDisconnect(D,T)\n#else\n#define SQLITE_PRIVATE static\n#endif\n";
    let file = "#ifndef SQLITE_OMIT_VIRTUALTABLE\nSQLITE_PRIVATE void sqlite3VtabClear(sqlite3 *db, Table*);\nSQLITE_PRIVATE void sqlite3VtabDisconnect(sqlite3 *db, Table *p);\n#endif\n\nstatic void\nsqlite3VtabClear(sqlite3 *db, Table *p)\n{\n  (void)db;\n}\n";
    let tree = with_project(Lang::C, header, file);
    assert!(!tree.has_errors);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "sqlite3VtabClear",
            "sqlite3VtabDisconnect",
            "sqlite3VtabClear"
        ]
    );
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_macro_naming_another_type_is_a_type_name() {
    // zstd's `#define BYTE xxh_u8` (for old names), libevent's
    // `#define ARC4RANDOM_UINT32 uint32_t`: the word reads as a type.
    let header = "typedef unsigned char xxh_u8;\n#ifdef XXH_OLD_NAMES\n#  define BYTE xxh_u8\n#endif\n#define FORCE_INLINE_TEMPLATE static inline\n";
    let file = "FORCE_INLINE_TEMPLATE BYTE\nHUF_decodeSymbolX1(BIT_DStream_t* Dstream, const U32 dtLog)\n{\n    BYTE const c = dt[0].byte;\n    return c;\n}\n";
    let tree = with_project(Lang::C, header, file);
    assert!(!tree.has_errors);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["HUF_decodeSymbolX1"]);
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_macro_expanding_to_a_struct_reads_as_a_type_before_a_field() {
    // libevent's compat/sys/queue.h: `LIST_HEAD(name, type) members;`.
    let header = "#define LIST_HEAD(name, type)\t\t\t\t\t\t\\\nstruct name {\t\t\t\t\t\t\t\t\\\n\tstruct type *lh_first;\t/* first element */\t\t\t\\\n}\n";
    let file = "#include \"compat/sys/queue.h\"\n\nstruct bufferevent_rate_limit_group {\n\tLIST_HEAD(rlim_group_member_list, bufferevent_private) members;\n\tstruct ev_token_bucket rate_limit;\n};\n\nstatic LIST_HEAD(event_list, event) all_events;\n\nint bufferevent_rate_limit_group_get_count(void) {\n\treturn 0;\n}\n";
    let tree = with_project(Lang::C, header, file);
    assert!(!tree.has_errors);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "bufferevent_rate_limit_group",
            "bufferevent_rate_limit_group_get_count"
        ]
    );
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_generator_after_specifier_macros_on_its_line_is_blanked_with_them() {
    // xxhash (in zstd): `XXH_FORCE_INLINE XXH_TARGET_AVX512
    // XXH3_ACCUMULATE_TEMPLATE(avx512)` defines a whole function.
    let header = "#define XXH_FORCE_INLINE static inline\n#ifndef XXH_TARGET_AVX512\n# define XXH_TARGET_AVX512\n#endif\n#define XXH3_ACCUMULATE_TEMPLATE(name)  \\\nvoid                                    \\\nXXH3_accumulate_##name(xxh_u64* acc)    \\\n{                                       \\\n    XXH3_accumulate_512_##name(acc);    \\\n}\n";
    let file = "XXH_FORCE_INLINE XXH_TARGET_AVX512 void\nXXH3_accumulate_512_avx512(void* acc)\n{\n    (void)acc;\n}\nXXH_FORCE_INLINE XXH_TARGET_AVX512 XXH3_ACCUMULATE_TEMPLATE(avx512)\n\nXXH_FORCE_INLINE XXH_TARGET_AVX512 void\nXXH3_scrambleAcc_avx512(void* acc)\n{\n    (void)acc;\n}\n";
    let tree = with_project(Lang::C, header, file);
    assert!(!tree.has_errors);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        ["XXH3_accumulate_512_avx512", "XXH3_scrambleAcc_avx512"]
    );
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_null_directive_is_no_syntax_error() {
    // zstd's compiler.h: a `#` alone on its line between conditionals.
    let header = "#define ZSTD_ARCH_X86_SSE2\n";
    let file = "#if defined(__SSE2__)\n#  define ZSTD_ARCH_X86_SSE2\n#endif\n#\n#if defined(ZSTD_ARCH_X86_SSE2)\n#  include <emmintrin.h>\n#endif\nint ZSTD_cpuid(void) { return 0; }\n";
    let tree = with_project(Lang::C, header, file);
    assert!(!tree.has_errors);
    assert!(tree.find("ZSTD_cpuid").is_some());
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_named_pointer_to_member_is_read_as_a_pointer() {
    // log4cplus: `typedef void (SysLogAppender:: * AppendFuncType) (...)`,
    // nanobind: `operator()(Return (Class::*pmf)(Args...))`.
    let header = "#define LOG4CPLUS_EXPORT\n";
    let file = "namespace log4cplus {\nclass LOG4CPLUS_EXPORT SysLogAppender {\n    typedef void (SysLogAppender:: * AppendFuncType) (\n        const spi::InternalLoggingEvent&);\n    AppendFuncType appendFunc;\n};\ntemplate <typename Return, typename Class, typename... Args>\nconstexpr auto pmf_call(Return (Class::*pmf)(Args...)) noexcept { return pmf; }\n}\n";
    let tree = with_project(Lang::Cpp, header, file);
    assert!(!tree.has_errors);
    assert!(
        tree.find("log4cplus::SysLogAppender::AppendFuncType")
            .is_some()
    );
    assert!(tree.find("log4cplus::pmf_call").is_some());
    assert_snapshot!(golden(&tree));
}

#[test]
fn typedef_attributes_and_tag_defaults_are_no_syntax_errors() {
    // zstd's mem.h and nanobind's nb_traits.h, with the project's macros.
    let header = "#define MEM_STATIC static inline\n";
    let file = "typedef __attribute__((aligned(1))) unsigned short unalign16;\nMEM_STATIC unsigned MEM_read16(const void* ptr) { return *(const unalign16*)ptr; }\n";
    let tree = with_project(Lang::C, header, file);
    assert!(!tree.has_errors);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["unalign16", "MEM_read16"]);
    let header = "#define NB_INLINE inline\n";
    let file = "template <typename... Args> struct overload_cast_impl {\n    template <typename Return, typename Class>\n    constexpr auto operator()(Return (Class::*pmf)(Args...), std::false_type = {}) const noexcept\n                              -> decltype(pmf) { return pmf; }\n};\n";
    let tree = with_project(Lang::Cpp, header, file);
    assert!(!tree.has_errors);
    assert!(tree.find("overload_cast_impl::operator()").is_some());
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_qualifier_macro_between_a_type_and_a_variable_keeps_the_type() {
    // sqlite3.c: `SQLITE_WIN32_VOLATILE` is nothing in one branch and
    // `volatile` in the other; `LONG` is a type no header of it defines.
    let header = "#if SQLITE_OS_WINCE\n# define SQLITE_WIN32_VOLATILE\n#else\n# define SQLITE_WIN32_VOLATILE volatile\n#endif\n";
    let file = "static LONG SQLITE_WIN32_VOLATILE winMutex_lock = 0;\nstatic int after(void) { return 0; }\n";
    let tree = with_project(Lang::C, header, file);
    assert!(!tree.has_errors);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["after"]);
    // A macro before a type and a name is still a macro.
    let file = "SQLITE_API LONG SQLITE_WIN32_VOLATILE sqlite3_os_type = 0;\nMYLIB_API int SQLITE_WIN32_VOLATILE f(void);\n";
    let tree = with_project(Lang::C, header, file);
    assert!(!tree.has_errors);
    assert_snapshot!(golden(&tree), @"f [function] L2-2 | int SQLITE_WIN32_VOLATILE f(void)");
}

#[test]
fn a_storage_class_macro_before_a_return_type_no_header_defines_keeps_the_type() {
    // sqlite3.c's os_win.c: `SQLITE_PRIVATE` is the project's `static`;
    // `DWORD` and `HANDLE` come from <windows.h>, which it does not hold.
    let header = "#ifndef SQLITE_PRIVATE\n# define SQLITE_PRIVATE static\n#endif\n";
    let file = "SQLITE_PRIVATE DWORD sqlite3Win32Wait(HANDLE hObject); /* os_win.c */\n\nSQLITE_PRIVATE int sqlite3ThreadJoin(SQLiteThread *p, void **ppOut){\n  DWORD rc;\n  return 0;\n}\n";
    let tree = with_project(Lang::C, header, file);
    assert!(!tree.has_errors);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["sqlite3Win32Wait", "sqlite3ThreadJoin"]);
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_header_whose_code_uses_cpp_only_in_declarations_is_read_as_cpp() {
    // nanobind's nb_backend_slots.h: a list of `NB_SLOT(...)` that
    // nb_backend.h includes with `NB_SLOT` defined; `noexcept` is its
    // only C++.
    let header = "#define NB_CORE\n#define NB_SLOT(ret, name, args) NB_CORE ret name args;\n#include \"nb_backend_slots.h\"\n";
    let file = "/// Raise a builtin_exception of the given kind (va_list core)\nNB_SLOT(void, raise_v, (exception_type type, const char *fmt, va_list args))\n\n/// Chain a new error of the given type onto the currently pending one\nNB_SLOT(void, chain_v, (PyObject *type, const char *fmt, va_list args) noexcept)\n";
    let lang = Lang::detect("nb_backend_slots.h", file);
    assert_eq!(lang, Some(Lang::Cpp));
    let tree = with_project(Lang::Cpp, header, file);
    assert!(!tree.has_errors);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["raise_v", "chain_v"]);
    // glog's vlog_is_on.h: a qualified name (`google::int32`) in a struct
    // is its only C++; `::` in a comment or a directive says nothing.
    let file = "#define VLOG_IS_ON(v) (google::FLAGS_v >= (v))\nstruct SiteFlag {\n  google::int32* level;\n  const char* base_name;\n};\n";
    assert_eq!(Lang::detect("vlog_is_on.h", file), Some(Lang::Cpp));
    let c = "/* see std::vector */\n#define X a::b\nstruct S { int a; }; // c::d\n";
    assert_eq!(Lang::detect("s.h", c), Some(Lang::C));
    let tree = with_project(Lang::Cpp, "#define GLOG_EXPORT\n", file);
    assert!(!tree.has_errors);
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_conditional_that_closes_a_namespace_and_opens_it_again_is_read_through() {
    // glog's logging.h: under `GLOG_SANITIZE_THREAD` (defined by the
    // header itself) the namespace is closed for an `extern "C"`
    // declaration and opened again. (In a file this small the later
    // attempts of `preproc` rescue it too; in glog's own they do not, and
    // `branches::tests` fails without the change.)
    let header = "#if defined(__has_feature)\n#  if __has_feature(thread_sanitizer)\n#    define GLOG_SANITIZE_THREAD 1\n#  endif\n#endif\n#define GLOG_EXPORT\n";
    let file = "namespace google {\nclass GLOG_EXPORT LogMessage {\n public:\n  LogMessage(const char* file, int line);\n};\n\n#if defined(GLOG_SANITIZE_THREAD)\n} // namespace google\n\nextern \"C\" void AnnotateBenignRaceSized(\n  const char *file,\n  int line);\n\nnamespace google {\n#endif\n\nGLOG_EXPORT void FlushLogFiles(int min_severity);\n\n}  // namespace google\n";
    let tree = with_project(Lang::Cpp, header, file);
    assert!(!tree.has_errors);
    assert!(tree.find("google::FlushLogFiles").is_some());
    assert_snapshot!(golden(&tree));
}

#[test]
fn libevent_s_table_macros_and_a_return_type_alone_on_its_line_are_read() {
    // libevent: `HT_HEAD(...)` and `TAILQ_HEAD(...)` expand to a struct
    // with its body, `HT_INITIALIZER()` to a brace initializer; a field
    // whose declarator is in parentheses; a Windows return type alone on
    // the line before the function it types.
    let header = "#define HT_HEAD(name, type)                                             \\\n  struct name {                                                         \\\n    struct type **hth_table;                                            \\\n    unsigned hth_table_length;                                          \\\n  }\n\n#define HT_INITIALIZER()                        \\\n  { NULL, 0, 0, 0, -1 }\n\n#define TAILQ_HEAD(name, type)\t\t\t\t\t\t\\\nstruct name {\t\t\t\t\t\t\t\t\\\n\tstruct type *tqh_first;\t/* first element */\t\t\t\\\n\tstruct type **tqh_last;\t/* addr of last next element */\t\t\\\n}\n";
    let file = "static HT_HEAD(event_debug_map, event_debug_entry) global_debug_map =\n\tHT_INITIALIZER();\n\n/* record that ev is now setup */\nstatic void event_debug_note_setup_(const struct event *ev)\n{\n}\n\nstruct evrpc_pool {\n\tint timeout;\n\n\tTAILQ_HEAD(evrpc_requestq, evrpc_request_wrapper) (requests);\n};\n\n#ifdef _WIN32\nHMODULE\nevutil_load_windows_system_library_(const TCHAR *library_name)\n{\n  return 0;\n}\n#endif\n";
    let tree = with_project(Lang::C, header, file);
    assert!(!tree.has_errors);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "event_debug_note_setup_",
            "evrpc_pool",
            "evutil_load_windows_system_library_"
        ]
    );
    assert_snapshot!(golden(&tree));
}

#[test]
fn objective_c_in_a_c_or_cpp_header_is_no_syntax_error() {
    // Catch2's single header (`#ifdef __OBJC__` ... `@protocol OcFixture`
    // ... `@end`, `@try`/`@catch` in a body) and SDL2's SDL_syswm.h
    // (`@class NSWindow;`): what only an Objective-C compiler reads.
    let header = "#ifdef __has_feature\n#define CATCH_ARC_ENABLED __has_feature(objc_arc)\n#else\n#define CATCH_ARC_ENABLED 0\n#endif\n";
    let file = "#ifdef __OBJC__\n#import <objc/runtime.h>\n\n// all its methods are optional.\n@protocol OcFixture\n\n@optional\n\n-(void) setUp;\n-(void) tearDown;\n\n@end\n\nnamespace Catch {\n    class OcMethod : public ITestInvoker {\n    public:\n        void invoke() const override {\n            @try {\n                run();\n            }\n            @catch (NSException *exception) {\n                fail();\n            }\n        }\n    };\n}\n@class NSWindow, NSView;\n#endif\n\nnamespace Catch {\n    void cleanUp();\n}\n";
    let tree = with_project(Lang::Cpp, header, file);
    assert!(!tree.has_errors);
    assert!(tree.find("Catch::OcMethod::invoke").is_some());
    assert!(tree.find("Catch::cleanUp").is_some());
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_generator_macro_longer_than_the_bodies_read_is_still_a_generator() {
    // libevent's ht-internal.h: `HT_PROTOTYPE(...)` and `HT_GENERATE(...)`
    // expand to several KB of functions each, invoked without a `;`.
    let mut header = String::from(
        "#define HT_HEAD(name, type) struct name { struct type **hth_table; unsigned hth_table_length; }\n#define HT_INITIALIZER() { NULL, 0 }\n#define HT_PROTOTYPE(name, type, field, hashfn, eqfn)   \\\n  int name##_HT_GROW(struct name *ht, unsigned min_capacity);  \\\n",
    );
    for i in 0..40 {
        header.push_str(&format!("  static inline void name##_HT_INIT{i}(struct name *head) {{  \\\n    head->hth_table_length = 0;  /* the length */  \\\n  }}  \\\n"));
    }
    header.push_str("  int name##_HT_LAST(void);\n");
    assert!(header.len() > 4096);
    header.push_str("#define HT_GENERATE(name, type, field, hashfn, eqfn, load, mallocfn, reallocfn, freefn) \\\n");
    header.push_str(&"  int name##_HT_GROW(struct name *head, unsigned size) { head->n = size; return 0; } \\\n".repeat(40));
    header.push_str("  int name##_HT_END(void);\n");
    let file = "static HT_HEAD(event_debug_map, event_debug_entry) global_debug_map =\n\tHT_INITIALIZER();\n\nHT_PROTOTYPE(event_debug_map, event_debug_entry, node, hash_debug_entry,\n    eq_debug_entry)\nHT_GENERATE(event_debug_map, event_debug_entry, node, hash_debug_entry,\n    eq_debug_entry, 0.5, mm_malloc, mm_realloc, mm_free)\n\n/* record that ev is now setup */\nstatic void event_debug_note_setup_(const struct event *ev)\n{\n}\n";
    let tree = with_project(Lang::C, &header, file);
    assert!(!tree.has_errors);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["event_debug_note_setup_"]);
    assert_snapshot!(golden(&tree));
}

#[test]
fn an_attribute_between_a_variable_and_its_initializer_is_seen_through() {
    // sqlite3.c's `columnNullValue`: `__attribute__((aligned(8)))`, in a
    // conditional, between a static variable and its `= {`.
    let header = "#define SQLITE_API\n#define MEM_Null 0x0001\n";
    let file = "SQLITE_API int sqlite3_data_count(sqlite3_stmt *pStmt){\n  return 0;\n}\n\nstatic const Mem *columnNullValue(void){\n  static const Mem nullMem\n#if defined(SQLITE_DEBUG) && defined(__GNUC__)\n    __attribute__((aligned(8)))\n#endif\n    = {\n        /* .u          = */ {0},\n        /* .flags      = */ (u16)MEM_Null,\n      };\n  return &nullMem;\n}\nstatic const Mem gMem __attribute__((aligned(8))) = { 0 };\n";
    let tree = with_project(Lang::C, header, file);
    assert!(!tree.has_errors);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["sqlite3_data_count", "columnNullValue"]);
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_function_that_a_branch_defines_as_a_value_keeps_its_name() {
    // sqlite3.c's vdbesort.c: `vdbeSorterJoinAll` is a function with
    // threads, `# define vdbeSorterJoinAll(x,rcin) (rcin)` without.
    let header = "#define SQLITE_OK 0\n";
    let file = "#if SQLITE_MAX_WORKER_THREADS>0\nstatic int vdbeSorterJoinAll(VdbeSorter *pSorter, int rcin){\n  int rc = rcin;\n  return rc;\n}\n#else\n# define vdbeSorterJoinAll(x,rcin) (rcin)\n#endif\n\nstatic void vdbeSorterReset(VdbeSorter *pSorter){\n  (void)vdbeSorterJoinAll(pSorter, SQLITE_OK);\n}\n";
    let tree = with_project(Lang::C, header, file);
    assert!(!tree.has_errors);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["vdbeSorterJoinAll", "vdbeSorterReset"]);
    // A macro in capitals after a function's name is the macro's
    // (zlib's `OF((args))`, as zconf.h defines it).
    let zconf = "#define OF(args)  args\n#define ZEXTERN extern\n#define ZEXPORT\n";
    let zlib = "ZEXTERN const char * ZEXPORT zlibVersion OF((void));\nZEXTERN int ZEXPORT deflate OF((z_streamp strm, int flush));\n";
    let z = with_project(Lang::C, zconf, zlib);
    assert!(!z.has_errors);
    let names: Vec<&str> = z.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["zlibVersion", "deflate"]);
    assert_snapshot!(golden(&tree));
}

#[test]
fn an_object_like_macro_of_a_whole_member_alone_on_its_line_is_blanked() {
    // sqlite3.c's parse.c (Lemon): `sqlite3ParserCTX_SDECL` is `Parse
    // *pParse;`, too long a name to write over.
    let header = "#define sqlite3ParserARG_SDECL\n#define sqlite3ParserCTX_SDECL Parse *pParse;\n";
    let file = "struct yyParser {\n  yyStackEntry *yytos;          /* Pointer to top element of the stack */\n  sqlite3ParserARG_SDECL                /* A place to hold %extra_argument */\n  sqlite3ParserCTX_SDECL                /* A place to hold %extra_context */\n  yyStackEntry *yystackEnd;           /* Last entry in the stack */\n};\ntypedef struct yyParser yyParser;\n";
    let tree = with_project(Lang::C, header, file);
    assert!(!tree.has_errors);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["yyParser", "yyParser"]);
    assert_snapshot!(golden(&tree));
}

#[test]
fn an_object_like_macro_of_extra_parameters_is_blanked_at_a_lists_end() {
    // sqlite3.c's parse.c (Lemon): `sqlite3ParserCTX_PDECL` is `,Parse
    // *pParse`, a parameter too long to write over.
    let header = "#define SQLITE_PRIVATE static\n#define sqlite3ParserCTX_PDECL ,Parse *pParse\n#define sqlite3ParserCTX_STORE yypParser->pParse=pParse;\n";
    let file = "SQLITE_PRIVATE void sqlite3ParserInit(void *yypRawParser sqlite3ParserCTX_PDECL){\n  yyParser *yypParser = (yyParser*)yypRawParser;\n  sqlite3ParserCTX_STORE\n  yypParser->yyhwm = 0;\n}\nstatic YYACTIONTYPE yy_reduce(\n  yyParser *yypParser,         /* The parser */\n  int yyLookahead             /* Lookahead token */\n  sqlite3ParserCTX_PDECL                   /* %extra_context */\n){\n  return 0;\n}\nSQLITE_PRIVATE void sqlite3ParserFinalize(void *p);\n";
    let tree = with_project(Lang::C, header, file);
    assert!(!tree.has_errors);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        ["sqlite3ParserInit", "yy_reduce", "sqlite3ParserFinalize"]
    );
    assert_snapshot!(golden(&tree));
}

#[test]
fn related_macros_of_one_conditional_are_read_from_one_branch() {
    // Catch2's `CATCH_TRY{…} CATCH_CATCH_ALL{`: each defined under
    // `#if defined(CATCH_CONFIG_DISABLE_EXCEPTIONS)` and again under
    // `#else`; `if ((true))` does not fit over `CATCH_TRY`, so the
    // branch all of whose words fit is the one read, for every name.
    let header = "#if defined(CATCH_CONFIG_DISABLE_EXCEPTIONS)\n#define CATCH_TRY if ((true))\n#define CATCH_CATCH_ALL if ((false))\n#define CATCH_CATCH_ANON(type) if ((false))\n#else\n#define CATCH_TRY try\n#define CATCH_CATCH_ALL catch (...)\n#define CATCH_CATCH_ANON(type) catch (type)\n#endif\n";
    let file = "namespace Catch {\n    template <typename Fun>\n    Detail::CompleteType_t<FunctionReturnType<Fun>> user_code(Fun&& fun) {\n        CATCH_TRY{\n            return Detail::complete_invoke(std::forward<Fun>(fun));\n        } CATCH_CATCH_ALL{\n            getResultCapture().benchmarkFailed(translateActiveException());\n        }\n    }\n    void RunContext::invokeActiveTestCase() {\n        CATCH_TRY {\n            m_activeTestCase->invoke();\n        } CATCH_CATCH_ANON (TestFailureException&) {\n            // This just means the test was aborted due to failure\n        } CATCH_CATCH_ALL {\n            handleUnexpectedInflightException();\n        }\n    }\n} // namespace Catch\n";
    let tree = with_project(Lang::Cpp, header, file);
    assert_eq!(
        golden(&tree).matches("syntax error").count(),
        0,
        "{}",
        golden(&tree)
    );
    let names: Vec<String> = tree.iter().map(|s| s.name.clone()).collect();
    assert_eq!(names, ["Catch", "user_code", "invokeActiveTestCase"]);
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_lower_case_macro_around_a_prototype_s_parameters_is_seen_through() {
    let header = "#ifndef P_\n#if defined(__STDC__) || defined(_WIN32)\n# define P_(args) args\n#else\n# define P_(args) ()\n#endif\n#endif\n#ifndef _\n# define _(args) args\n#endif\n";
    let file = "#include \"regint.h\"\n\nextern void re_mbcinit P_((int));\nONIG_EXTERN\nint onig_new P_((regex_t**, const UChar* pattern, OnigOptionType option));\nst_table *st_init_table _((struct st_hash_type *));\nstatic void print_tree P_((FILE* f, Node* node));\nOnigRegex onig_regset_get_regex P_((OnigRegSet* set, int at));\n\nstatic int\nonig_free_body(regex_t* reg)\n{\n  return 0;\n}\n";
    let tree = with_project(Lang::C, header, file);
    assert!(!tree.has_errors);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "re_mbcinit",
            "onig_new",
            "st_init_table",
            "print_tree",
            "onig_regset_get_regex",
            "onig_free_body"
        ]
    );
    assert!(parse(Lang::C, file).has_errors);
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_template_macro_with_a_requires_clause_is_read_as_a_template_head() {
    let header = "#define template(...)                                  \\\n    CPP_PP_IGNORE_CXX2A_COMPAT_BEGIN                   \\\n    template<__VA_ARGS__ CPP_TEMPLATE_AUX_             \\\n\n#define AND CPP_and\n";
    let file = "#include \"prologue.hpp\"\n\nnamespace ranges {\nstruct insert_fn {\n    template(typename Cont, typename T)(\n        requires lvalue_container_like<Cont> AND\n        (!range<T> && constructible_from<range_value_t<Cont>, T>)) //\n    insert_result_t<Cont &, T> operator()(Cont && cont, T && t) const\n    {\n        return insert(cont, t);\n    }\n};\n\ntemplate(typename I, typename S)(\n    requires sentinel_for<S, I>)\nI next(I i, S s)\n{\n    return i;\n}\n\ntemplate<typename T>\nstruct box {};\n}\n";
    let tree = with_project(Lang::Cpp, header, file);
    assert_eq!(tree.error_line, None);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["ranges", "insert_fn", "operator()", "next", "box"]);
    assert_snapshot!(golden(&tree));
}

#[test]
fn a_header_whose_only_cpp_is_a_const_member_is_read_as_cpp() {
    // rapidjson's memorystream.h: its namespace opens with a macro of
    // another header, so a member function's `const` is its only C++.
    let header = "#define RAPIDJSON_NAMESPACE rapidjson\n#define RAPIDJSON_NAMESPACE_BEGIN namespace RAPIDJSON_NAMESPACE {\n#define RAPIDJSON_NAMESPACE_END }\n";
    let file = "#include \"rapidjson.h\"\n\nRAPIDJSON_NAMESPACE_BEGIN\n\nstruct MemoryStream {\n    typedef char Ch; // byte\n\n    MemoryStream(const Ch *src, size_t size) : src_(src), size_(size) {}\n\n    Ch Peek() const { return *src_; }\n    size_t Tell() const { return 0; }\n\n    const Ch* src_;\n    size_t size_;\n};\n\nRAPIDJSON_NAMESPACE_END\n";
    assert_eq!(Lang::detect("memorystream.h", file), Some(Lang::Cpp));
    let tree = with_project(Lang::Cpp, header, file);
    assert_eq!(tree.error_line, None);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        ["MemoryStream", "Ch", "MemoryStream", "Peek", "Tell"]
    );
    // C has no member functions: a `const` after a parameter list is
    // only C++'s; C's `const` after `)` starts the next declaration.
    let c = "int f(void);\nFOO(1) const char *g(void);\nstruct S { int (*cb)(void); };\n";
    assert_eq!(Lang::detect("s.h", c), Some(Lang::C));
}

#[test]
fn a_return_type_macro_under_a_namespace_macro_is_read_as_a_type() {
    // rapidjson's document.h and the definitions of its rapidjson.h and
    // internal/meta.h.
    let header = "#ifndef RAPIDJSON_NAMESPACE\n#define RAPIDJSON_NAMESPACE rapidjson\n#endif\n#ifndef RAPIDJSON_NAMESPACE_BEGIN\n#define RAPIDJSON_NAMESPACE_BEGIN namespace RAPIDJSON_NAMESPACE {\n#endif\n#ifndef RAPIDJSON_NAMESPACE_END\n#define RAPIDJSON_NAMESPACE_END }\n#endif\n#define RAPIDJSON_REMOVEFPTR_(type) \\\n    typename ::RAPIDJSON_NAMESPACE::internal::RemoveSfinaeTag \\\n        < ::RAPIDJSON_NAMESPACE::internal::SfinaeTag&(*) type>::Type\n\n#define RAPIDJSON_ENABLEIF(cond) \\\n    typename ::RAPIDJSON_NAMESPACE::internal::EnableIf \\\n        <RAPIDJSON_REMOVEFPTR_(cond)>::Type * = NULL\n\n#define RAPIDJSON_DISABLEIF(cond) \\\n    typename ::RAPIDJSON_NAMESPACE::internal::DisableIf \\\n        <RAPIDJSON_REMOVEFPTR_(cond)>::Type * = NULL\n\n#define RAPIDJSON_ENABLEIF_RETURN(cond,returntype) \\\n    typename ::RAPIDJSON_NAMESPACE::internal::EnableIf \\\n        <RAPIDJSON_REMOVEFPTR_(cond), \\\n         RAPIDJSON_REMOVEFPTR_(returntype)>::Type\n\n#define RAPIDJSON_DISABLEIF_RETURN(cond,returntype) \\\n    typename ::RAPIDJSON_NAMESPACE::internal::DisableIf \\\n        <RAPIDJSON_REMOVEFPTR_(cond), \\\n         RAPIDJSON_REMOVEFPTR_(returntype)>::Type\n#if RAPIDJSON_HAS_CXX11_NOEXCEPT\n#define RAPIDJSON_NOEXCEPT noexcept\n#else\n#define RAPIDJSON_NOEXCEPT /* noexcept */\n#endif\n";
    let file = "template <typename Encoding>\nclass GenericValue {\npublic:\n\n    //! Assignment of constant string reference (no copy)\n    /*! \\param str Constant string reference to be assigned\n        \\note This overload is needed to avoid clashes with the generic primitive type assignment overload below.\n        \\see GenericStringRef, operator=(T)\n    */\n    GenericValue& operator=(StringRefType str) RAPIDJSON_NOEXCEPT {\n        GenericValue s(str);\n        return *this = s;\n    }\n\n    //! Assignment with primitive types.\n    /*! \\tparam T Either \\ref Type, \\c int, \\c unsigned, \\c int64_t, \\c uint64_t\n        \\param value The value to be assigned.\n\n        \\note The source type \\c T explicitly disallows all pointer types,\n            especially (\\c const) \\ref Ch*.  This helps avoiding implicitly\n            referencing character strings with insufficient lifetime, use\n            \\ref SetString(const Ch*, Allocator&) (for copying) or\n            \\ref StringRef() (to explicitly mark the pointer as constant) instead.\n            All other pointer types would implicitly convert to \\c bool,\n            use \\ref SetBool() instead.\n    */\n    template <typename T>\n    RAPIDJSON_DISABLEIF_RETURN((internal::IsPointer<T>), (GenericValue&))\n    operator=(T value) {\n        GenericValue v(value);\n        return *this = v;\n    }\n};\n";
    let tree = with_project(Lang::Cpp, header, file);
    assert_eq!(tree.error_line, None);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["GenericValue", "operator=", "operator="]);
    assert_snapshot!(golden(&tree));
}

#[test]
fn an_inline_macro_before_an_out_of_line_conversion_operator_is_seen_through() {
    let header = "#if defined(_MSC_VER)\n#  define NB_INLINE          __forceinline\n#else\n#  define NB_INLINE          inline __attribute__((always_inline))\n#endif\n";
    let file = "template <typename Derived> class api {\npublic:\n    operator handle() const;\n};\n\ntemplate <typename Derived> NB_INLINE api<Derived>::operator handle() const {\n    return derived().ptr();\n}\n";
    let tree = with_project(Lang::Cpp, header, file);
    assert_eq!(tree.error_line, None);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["api", "operator handle", "operator handle"]);
    assert_snapshot!(golden(&tree));
}
