//! Ruby, Lua and Markdown through the real binary: symbols with Ruby's
//! paths, skeletons that keep `end`, a Markdown outline that is its
//! heading tree, a mask on one section, and `build --target` packing a
//! Ruby file with what it requires.

use crate::common::Project;

fn project() -> Project {
    let p = Project::empty();
    p.write(
        "lib/shop.rb",
        "require_relative 'shop/cart'\n\n# The shop.\nmodule Shop\n  class Store\n    # Opens it.\n    def open(hours)\n      @hours = hours\n    end\n\n    def self.build\n      new\n    end\n  end\nend\n",
    );
    p.write(
        "lib/shop/cart.rb",
        "module Shop\n  class Cart\n    def add(item)\n      items << item\n    end\n  end\nend\n",
    );
    p.write(
        "Rakefile",
        "task :default do\n  puts 'ok'\nend\n\ndef helper\n  1\nend\n",
    );
    p.write(
        "init.lua",
        "local M = {}\n\nfunction M.greet(name)\n  return 'hi ' .. name\nend\n\nreturn M\n",
    );
    p.write(
        "README.md",
        "# Shop\n\nA shop.\n\n## Install\n\n```sh\n# not a heading\n```\n\nUsage\n-----\n\nRun it.\n",
    );
    p
}

#[test]
fn symbols_use_each_languages_own_paths() {
    let p = project();
    let ruby = p.ok(&["symbols", "lib/shop.rb"]);
    for path in [
        "Shop",
        "Shop::Store",
        "Shop::Store#open",
        "Shop::Store.build",
    ] {
        assert!(ruby.contains(path), "{path} in {ruby}");
    }
    assert!(p.ok(&["symbols", "Rakefile"]).contains("helper"));
    assert!(p.ok(&["symbols", "init.lua"]).contains("M.greet"));
    let readme = p.ok(&["symbols", "README.md"]);
    assert!(
        readme.contains("Shop > Install") && readme.contains("Shop > Usage"),
        "{readme}"
    );
    assert!(!readme.contains("not a heading"), "{readme}");
}

#[test]
fn skeletons_and_outlines() {
    let p = project();
    assert_eq!(
        p.ok(&["view", "lib/shop/cart.rb", "--mode", "skeleton"]),
        "module Shop\n  class Cart\n    def add(item)\n      # ...\n    end\n  end\nend\n"
    );
    assert_eq!(
        p.ok(&["view", "init.lua", "--mode", "skeleton"]),
        "local M = {}\n\nfunction M.greet(name)\n  --[[ ... ]]\nend\n\nreturn M\n"
    );
    assert_eq!(
        p.ok(&["view", "README.md", "--mode", "skeleton"]),
        "# Shop\n\n## Install\n\nUsage\n-----\n"
    );
    let outline = p.ok(&["view", "README.md", "--mode", "outline"]);
    assert!(outline.contains("section Shop"), "{outline}");
    assert!(outline.contains("  section Install"), "{outline}");
}

#[test]
fn a_section_masked_to_its_heading() {
    let p = project();
    p.ok(&["add", "README.md"]);
    p.ok(&["mask", "README.md", "Shop > Install", "sig"]);
    // A masked file's other symbols take its default (`sig`): one in full.
    p.ok(&["mask", "README.md", "Shop > Usage", "def"]);
    let built = p.ok(&["build"]);
    assert!(built.contains("## Install\n"), "{built}");
    assert!(!built.contains("# not a heading"), "{built}");
    assert!(built.contains("Run it."), "{built}");
}

#[test]
fn build_packs_a_ruby_target_with_what_it_requires() {
    let p = project();
    let built = p.ok(&["build", "--target", "lib/shop.rb", "--budget", "4000"]);
    assert!(built.contains("### lib/shop.rb"), "{built}");
    assert!(built.contains("### lib/shop/cart.rb"), "{built}");
}
