//! Ruby's and Lua's imports on small fixture projects, exactly: Ruby's
//! `require_relative` beside the file and `require` through a `lib/`
//! folder, Lua's `require` to `a/b.lua` or `a/b/init.lua` from the top
//! or a folder above the file; gems, rocks and the standard libraries are
//! external, a missing file of the project's own is unresolved.

use crate::common::Project;

use ctxcurate::core::discovery::graph::ImportGraph;
use ctxcurate::core::sources::{Codebase, Sources};
use ctxcurate::core::walk;

fn graph(p: &Project) -> ImportGraph {
    let files = walk::walk_files(p.root());
    ImportGraph::build(
        &Codebase::new(p.root(), &Sources::new()).with_walk(&files),
        &[],
    )
}

fn edges(g: &ImportGraph) -> Vec<(String, String)> {
    g.edges()
        .into_iter()
        .map(|(a, b, _)| (a.to_string(), b.to_string()))
        .collect()
}

fn e(a: &str, b: &str) -> (String, String) {
    (a.to_string(), b.to_string())
}

fn unresolved(g: &ImportGraph) -> Vec<(String, String)> {
    g.unresolved()
        .iter()
        .map(|u| (u.file.clone(), u.import.clone()))
        .collect()
}

#[test]
fn ruby_require_relative_and_lib_requires() {
    let p = Project::empty();
    p.write(
        "lib/shop.rb",
        "require 'json'\nrequire \"shop/cart\"\nrequire_relative 'shop/version'\nrequire 'shop/' + kind\n\nmodule Shop; end\n",
    );
    p.write(
        "lib/shop/cart.rb",
        "require_relative './item'\nrequire_relative '../shop/version'\nrequire 'shop/missing'\nrequire \"#{__dir__}/dynamic\"\nautoload :Tax, 'shop/tax'\n",
    );
    p.write("lib/shop/item.rb", "class Item; end\n");
    p.write("lib/shop/version.rb", "VERSION = '1'\n");
    p.write("lib/shop/tax.rb", "module Tax; end\n");
    // The standard library's `digest/md5`, from a folder named `digest`.
    p.write("lib/shop/digest/sum.rb", "require 'digest/md5'\n");
    p.write("bin/shop.rb", "require_relative '../lib/shop'\n");
    p.write(
        "Rakefile",
        "require_relative 'lib/shop/version'\nrequire_relative 'tasks/gone'\n",
    );
    p.write("README.md", "# Shop\n\nSee [cart](lib/shop/cart.rb).\n");
    let g = graph(&p);
    assert!(!g.contains("README.md"), "Markdown is no node of the graph");
    assert_eq!(
        edges(&g),
        vec![
            e("Rakefile", "lib/shop/version.rb"),
            e("bin/shop.rb", "lib/shop.rb"),
            e("lib/shop.rb", "lib/shop/cart.rb"),
            e("lib/shop.rb", "lib/shop/version.rb"),
            e("lib/shop/cart.rb", "lib/shop/item.rb"),
            e("lib/shop/cart.rb", "lib/shop/tax.rb"),
            e("lib/shop/cart.rb", "lib/shop/version.rb"),
        ]
    );
    assert_eq!(
        unresolved(&g),
        vec![
            e("Rakefile", "require_relative \"tasks/gone\""),
            e("lib/shop/cart.rb", "require \"shop/missing\""),
        ]
    );
}

#[test]
fn lua_requires_find_modules_and_init_files() {
    let p = Project::empty();
    p.write(
        "main.lua",
        "local app = require(\"app\")\nlocal util = require 'app.util'\nlocal json = require \"cjson\"\n-- require(\"app.commented\")\n",
    );
    p.write(
        "app/init.lua",
        "local M = {}\nlocal util = require('app.util')\nlocal gone = require('app.gone')\nlocal x = require('app.' .. name)\nreturn M\n",
    );
    p.write("app/util.lua", "return { ok = true }\n");
    // A plugin tree: its modules are found from its own `lua/` folder.
    p.write(
        "plugin/lua/tool/core.lua",
        "local h = require('tool.helpers')\n",
    );
    p.write("plugin/lua/tool/helpers.lua", "return {}\n");
    let g = graph(&p);
    assert_eq!(
        edges(&g),
        vec![
            e("app/init.lua", "app/util.lua"),
            e("main.lua", "app/init.lua"),
            e("main.lua", "app/util.lua"),
            e("plugin/lua/tool/core.lua", "plugin/lua/tool/helpers.lua"),
        ]
    );
    assert_eq!(
        unresolved(&g),
        vec![e("app/init.lua", "require(\"app.gone\")")]
    );
}
