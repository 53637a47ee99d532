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
const S10: &str = "/* leading comment\n * two\n */\nint ok(void);\nint bad(int a) {}\n@@@ garbage here\nint late(void);\n";

#[test]
fn dump() {
    for (l, s) in [(Lang::C, S1), (Lang::C, S2), (Lang::Cpp, S3), (Lang::Cpp, S4), (Lang::Cpp, S5), (Lang::Cpp, S6), (Lang::C, S7), (Lang::C, S8), (Lang::C, S10)] {
        eprintln!("=====\n{}", show(l, s));
        let tree = parse(l, s);
        eprintln!("--skel\n{}", skeleton(&tree, s));
    }
}

#[test]
fn tree_dump() {
    for (l, s) in [(Lang::Cpp, S3), (Lang::C, S8), (Lang::Cpp, S5), (Lang::C, S2)] {
        let text = crate::core::syntax::preprocessed(l, s, &Default::default());
        eprintln!("=====\n{text}");
        let t = crate::core::syntax::lang::parse_tree(l, &text).unwrap();
        eprintln!("{}", t.root_node().to_sexp());
    }
}
