//! C and C++ as real libraries write them: export and attribute macros
//! (Lua, zlib, curl, sqlite, libpng, fmt, googletest shapes), conditionals
//! inside declarations (fmt's `args.h`), operators and conversion
//! operators, and the shapes that made the syntax-error note fire on valid
//! code. Names are always the declarator's name.

use insta::assert_snapshot;

use super::{listing, names_and_lines};
use crate::core::syntax::{Lang, SymbolKind, parse};

const EXPORTS_C: &str = r#"/* exports.h - the export macros of C libraries. */
#define LUA_API extern
LUA_API lua_CFunction lua_atpanic (lua_State *L, lua_CFunction panicf);
LUA_API int   (lua_gettop) (lua_State *L);
LUAI_FUNC lua_Integer luaV_idiv (lua_State *L, lua_Integer x, lua_Integer y);
l_sinline StkId index2stack (lua_State *L, int idx) {
  return L->top;
}
ZEXTERN int ZEXPORT deflate OF((z_streamp strm, int flush));
ZEXTERN const char * ZEXPORT zError OF((int));
typedef Byte FAR Bytef;
CURL_EXTERN CURLcode curl_global_init(long flags);
SQLITE_API int sqlite3_open(const char *filename, sqlite3 **ppDb);
PNG_EXPORT(1, png_uint_32, png_access_version_number, (void));
PNG_EXPORTA(2, void, png_error, (png_const_structrp png_ptr), PNG_NORETURN);
typedef PNG_CALLBACK(void, *png_error_ptr, (png_structp, png_const_charp));
__declspec(dllexport) int win_f(void);
int attr_f(void) __attribute__((nonnull(1)));
int trailing_f(int a) MY_ATTR;
typedef void * (*lua_Alloc) (void *ud, void *ptr, size_t osize, size_t nsize);
"#;

#[test]
fn export_macros_never_become_the_name() {
    let tree = parse(Lang::C, EXPORTS_C);
    assert_eq!(tree.error_line, None);
    assert_snapshot!(listing(&tree));
    let functions: Vec<&str> = tree
        .iter()
        .filter(|s| s.kind == SymbolKind::Function)
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(
        functions,
        [
            "lua_atpanic",
            "lua_gettop",
            "luaV_idiv",
            "index2stack",
            "deflate",
            "zError",
            "curl_global_init",
            "sqlite3_open",
            "png_access_version_number",
            "png_error",
            "win_f",
            "attr_f",
            "trailing_f",
        ]
    );
}

const FMT_LIKE: &str = r#"// args.h - fmt's shapes.
FMT_BEGIN_NAMESPACE
namespace detail {
template <typename T> struct is_ref : std::false_type {};
template <typename T> struct is_ref<std::reference_wrapper<T>> : std::true_type {};
}  // namespace detail

class GTEST_API_ Test {
 public:
  FMT_CONSTEXPR Test(int x) : x_(x) {}
  bool operator!() const { return !x_; }
  int operator()(int y) const { return x_ + y; }
  explicit operator bool() const noexcept { return x_ != 0; }
  operator const std::locale&() const;
 private:
  int x_;
};

template <typename Context>
class dynamic_format_arg_store
#if FMT_GCC_VERSION && FMT_GCC_VERSION < 409
    : public basic_format_args<Context>
#endif
{
 public:
  void clear() { data_.clear(); }
#if FMT_USE_NOEXCEPT
  void reserve(size_t n) noexcept {}
#else
  void reserve(size_t n) {}
#endif
};
FMT_END_NAMESPACE
"#;

#[test]
fn cpp_macros_conditionals_and_operators() {
    let tree = parse(Lang::Cpp, FMT_LIKE);
    assert_eq!(tree.error_line, None);
    assert_snapshot!(listing(&tree));
    let store = tree
        .find("dynamic_format_arg_store")
        .expect("the class after a conditional base clause is a symbol");
    assert_eq!(store.kind, SymbolKind::Class);
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    for name in [
        "operator!",
        "operator()",
        "operator bool",
        "operator const std::locale&",
        "detail",
        "is_ref",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
}

#[test]
fn the_error_line_is_the_first_error_outside_function_bodies() {
    let src =
        "int ok(void) { return luaL_intop(+, i, 1); }\n\nint broken(int a b);\nint g(void);\n";
    let tree = parse(Lang::C, src);
    assert_eq!(tree.error_line, Some(3));
    assert!(tree.find("g").is_some());
}

/// Shapes of fmt, nlohmann json, curl, libpng and libyaml that made the
/// syntax-error note fire on valid code (issue 12), each as the project
/// writes it.
const HEADER_ONLY_CPP: &str = r#"// shapes.hpp
namespace detail {
template <typename T> class is_std_string_like {
  template <typename U>
  static auto check(U* p)
      -> decltype((void)p->find('a'), p->length(), (void)p->data(), int());
  template <typename> static void check(...);
};

template <typename OutputIt, typename Char>
auto write(OutputIt out, Char value, locale_ref loc = {}) -> OutputIt {
  return out;
}

#define FMT_TYPE_CONSTANT(Type, constant) \
  template <typename Char> struct type_constant<Type, Char> {}
FMT_TYPE_CONSTANT(int, int_type);
FMT_TYPE_CONSTANT(long long, long_long_type);

enum : unsigned long long { is_unpacked_bit = 1ULL << 63 };

#if JSON_HAS_THREE_WAY_COMPARISON
inline std::partial_ordering operator<=>(const value_t lhs, const value_t rhs) noexcept
#else
inline bool operator<(const value_t lhs, const value_t rhs) noexcept
#endif
{
  return lhs < rhs;
}

extern template FMT_API auto thousands_sep_impl<char>(locale_ref)
    -> thousands_sep_result<char>;
template class file_access<file_access_tag, std::filebuf, &std::filebuf::_Myfile>;

template <typename C = char, enable_if_t<std::is_signed<C>::value> * = nullptr>
static constexpr char to_char_type(std::uint8_t x) noexcept { return x; }

extern "C" __declspec(dllimport) int __stdcall WriteConsoleW(void*, const void*);

inline void report() {
  if (failed)
    FMT_THROW(format_error("invalid"));
}
}  // namespace detail
"#;

#[test]
fn header_only_cpp_shapes_parse_without_the_note() {
    let tree = parse(Lang::Cpp, HEADER_ONLY_CPP);
    assert_eq!(tree.error_line, None);
    assert_snapshot!(listing(&tree));
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    for name in [
        "check",
        "write",
        "operator<=>",
        "to_char_type",
        "WriteConsoleW",
        "report",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    assert!(!names.contains(&"FMT_TYPE_CONSTANT"), "{names:?}");
}

const C_LIBRARY_SHAPES: &str = r#"/* shapes.h */
#ifdef  __cplusplus
extern "C" {
#endif

#ifndef CURL_NO_OLDIES /* a comment that runs on
                          below the directive */
#define CURLE_OBSOLETE16 CURLE_HTTP2
#endif

CURLWARNING(_curl_easy_setopt_err_long,
  "curl_easy_setopt expects a long argument for this option")
CURLWARNING(_curl_easy_setopt_err_curl_off_t,
  "curl_easy_setopt expects a curl_off_t argument")

PNG_FP_EXPORT(125, float, png_get_pixel_aspect_ratio,
    (png_const_structrp png_ptr, png_const_inforp info_ptr))
PNG_FIXED_EXPORT(210, png_fixed_point, png_get_pixel_aspect_ratio_fixed,
    (png_const_structrp png_ptr, png_const_inforp info_ptr))
/* a comment after an export that ends itself */
PNG_EXPORT(126, png_int_32, png_get_x_offset_pixels,
    (png_const_structrp png_ptr, png_const_inforp info_ptr));
typedef char * * * png_charppp;

YAML_DECLARE(const char *)
yaml_get_version_string(void);

#ifdef  __cplusplus
} /* end of extern "C" */
#endif
"#;

#[test]
fn c_library_shapes_parse_without_the_note() {
    let tree = parse(Lang::C, C_LIBRARY_SHAPES);
    assert_eq!(tree.error_line, None);
    assert_snapshot!(listing(&tree));
    let names: Vec<&str> = tree.iter().map(|s| s.name.as_str()).collect();
    for name in [
        "png_get_pixel_aspect_ratio",
        "png_get_pixel_aspect_ratio_fixed",
        "png_get_x_offset_pixels",
        "png_charppp",
        "yaml_get_version_string",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
}

#[test]
fn a_large_one_line_table_is_no_symbol_and_no_error() {
    let entries: String = (0..3000).map(|i| format!("X({i}) Y {i} ")).collect();
    let src = format!(
        "static const struct e table[] = {{{entries}}};\nint lookup(int k) {{ return k; }}\n"
    );
    let tree = parse(Lang::C, &src);
    assert_eq!(tree.error_line, None);
    let paths: Vec<&str> = tree.iter().map(|s| s.path.as_str()).collect();
    assert_eq!(paths, ["lookup"]);
    assert_eq!(tree.find("lookup").map(|s| s.start_line), Some(2));
}

#[test]
fn a_pragma_inside_a_declaration_is_no_syntax_error() {
    // zstd.h: a declaration whose specifiers and name are split by
    // conditionals and `#pragma` lines.
    let src = "typedef struct { void* opaque; } ZSTD_customMem;\nstatic\n#ifdef __GNUC__\n__attribute__((__unused__))\n#endif\n\n#if defined(__clang__) && __clang_major__ >= 5\n#pragma clang diagnostic push\n#pragma clang diagnostic ignored \"-Wzero-as-null-pointer-constant\"\n#endif\nZSTD_customMem const ZSTD_defaultCMem = { NULL };\n#if defined(__clang__) && __clang_major__ >= 5\n#pragma clang diagnostic pop\n#endif\n\nint ZSTD_isError(size_t code);\n";
    let tree = parse(Lang::C, src);
    assert_eq!(tree.error_line, None);
    assert!(tree.find("ZSTD_isError").is_some());
}

#[test]
fn a_define_ending_a_branch_is_no_open_declaration_head() {
    // sqlite3.c: the whole parse fails, so do the branches kept one way
    // (`columnTypeImpl(` with `Expr *pExpr` under `#ifndef` and `Expr
    // *pExpr, const char **pzOrigDb, ...` under `#else`); keeping the
    // first branch of a conditional whose branch ends inside a
    // declaration head keeps the `#else` typedef and prototype after a
    // branch that ends with a `#define`.
    let src = "#if SQLITE_MAX_ATTACHED>30\n  typedef unsigned char yDbMask[(SQLITE_MAX_ATTACHED+9)/8];\n# define DbMaskNonZero(M)   (sqlite3DbMaskAllZero(M)==0)\n#else\n  typedef unsigned int yDbMask;\n#endif\n#ifdef SQLITE_OMIT_VIRTUALTABLE\n#  define sqlite3VtabDisconnect(D,X)\n#else\nstatic void sqlite3VtabDisconnect(sqlite3 *db, Table *p);\n#endif\nstatic const char *columnTypeImpl(\n  NameContext *pNC,\n#ifndef SQLITE_ENABLE_COLUMN_METADATA\n  Expr *pExpr\n#else\n  Expr *pExpr,\n  const char **pzOrigDb,\n  const char **pzOrigCol\n#endif\n){\n  return 0;\n}\nstatic int after(void){\n  return 1;\n}\n";
    let tree = parse(Lang::C, src);
    assert_eq!(tree.error_line, None);
    let names = names_and_lines(&tree);
    assert_eq!(
        names,
        [
            ("yDbMask".to_string(), 2),
            ("yDbMask".to_string(), 5),
            ("sqlite3VtabDisconnect".to_string(), 10),
            ("columnTypeImpl".to_string(), 12),
            ("after".to_string(), 24),
        ]
    );
}

#[test]
fn a_comment_opener_in_a_define_s_string_does_not_swallow_the_next_declarations() {
    // libgit2's refspec.h.
    let src = "#define GIT_REFSPEC_TAGS \"refs/tags/*:refs/tags/*\"\n\nint git_refspec__transform(git_str *out, const char *name);\n\nvoid git_refspec__dispose(git_refspec *refspec);\n\n/**\n * Whether a refspec is a wildcard.\n */\nint git_refspec_is_wildcard(const git_refspec *spec);\n";
    let tree = parse(Lang::C, src);
    assert_eq!(
        names_and_lines(&tree),
        [
            ("GIT_REFSPEC_TAGS".to_string(), 1),
            ("git_refspec__transform".to_string(), 3),
            ("git_refspec__dispose".to_string(), 5),
            ("git_refspec_is_wildcard".to_string(), 10),
        ]
    );
    let constant = tree
        .find("GIT_REFSPEC_TAGS")
        .map(|s| (s.start_line, s.end_line));
    assert_eq!(constant, Some((1, 1)));
}
