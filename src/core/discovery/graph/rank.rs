//! Personalized, weighted PageRank by power iteration over a petgraph
//! graph. petgraph's own `page_rank` has neither edge weights nor a
//! personalization vector, and both matter here: rank flows from the
//! user's target files along imports, in proportion to how much is
//! imported.

use petgraph::Direction;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;

/// The probability of following an edge rather than jumping back to the
/// personalization vector.
pub const DAMPING: f64 = 0.85;
const MAX_ITERATIONS: usize = 200;
const TOLERANCE: f64 = 1e-12;

/// The rank of every node (summing to 1), personalized on `seeds` (all
/// nodes equally when empty), each edge weighing `weight` of it. Rank of a
/// node without outgoing edges is redistributed by the personalization
/// vector, so it never leaks.
pub fn pagerank<N, E>(
    graph: &DiGraph<N, E>,
    seeds: &[NodeIndex],
    weight: impl Fn(&E) -> f64,
) -> Vec<f64> {
    let n = graph.node_count();
    if n == 0 {
        return Vec::new();
    }
    let mut personal = vec![0.0; n];
    if seeds.is_empty() {
        personal.fill(1.0 / n as f64);
    } else {
        for s in seeds {
            personal[s.index()] += 1.0 / seeds.len() as f64;
        }
    }
    // Outgoing (target, share) per node. Only imports carry rank: a file
    // that merely uses a target tells little about what the target needs,
    // and edges back through importers would leak rank to their other
    // dependencies (test helpers ranking above the target's own imports).
    let mut out: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    for node in graph.node_indices() {
        let mut links: Vec<(usize, f64)> = graph
            .edges_directed(node, Direction::Outgoing)
            .map(|e| (e.target().index(), weight(e.weight())))
            .filter(|(to, w)| *to != node.index() && *w > 0.0)
            .collect();
        let total: f64 = links.iter().map(|(_, w)| w).sum();
        for link in &mut links {
            link.1 /= total;
        }
        out[node.index()] = links;
    }
    let mut rank = personal.clone();
    for _ in 0..MAX_ITERATIONS {
        let mut next = vec![0.0; n];
        let mut dangling = 0.0;
        for (from, links) in out.iter().enumerate() {
            if links.is_empty() {
                dangling += rank[from];
            }
            for &(to, w) in links {
                next[to] += DAMPING * rank[from] * w;
            }
        }
        let jump = DAMPING * dangling + (1.0 - DAMPING);
        for (v, p) in next.iter_mut().zip(&personal) {
            *v += jump * p;
        }
        let delta: f64 = next.iter().zip(&rank).map(|(a, b)| (a - b).abs()).sum();
        rank = next;
        if delta < TOLERANCE {
            break;
        }
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_to_one_and_follows_weights() {
        let mut g: DiGraph<&str, f64> = DiGraph::new();
        let a = g.add_node("a");
        let b = g.add_node("b");
        let c = g.add_node("c");
        g.add_edge(a, b, 3.0);
        g.add_edge(a, c, 1.0);
        let r = pagerank(&g, &[a], |w| *w);
        assert!((r.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(r[a.index()] > r[b.index()]);
        assert!(r[b.index()] > r[c.index()], "{r:?}");
    }

    #[test]
    fn unseeded_is_classic_pagerank_on_a_cycle() {
        let mut g: DiGraph<(), f64> = DiGraph::new();
        let n: Vec<_> = (0..3).map(|_| g.add_node(())).collect();
        for i in 0..3 {
            g.add_edge(n[i], n[(i + 1) % 3], 1.0);
        }
        for r in pagerank(&g, &[], |w| *w) {
            assert!((r - 1.0 / 3.0).abs() < 1e-9);
        }
    }

    #[test]
    fn dangling_rank_returns_to_the_seeds() {
        // a → b, b has no imports: everything b holds jumps back to a.
        let mut g: DiGraph<(), f64> = DiGraph::new();
        let a = g.add_node(());
        let b = g.add_node(());
        let lone = g.add_node(());
        g.add_edge(a, b, 1.0);
        let r = pagerank(&g, &[a], |w| *w);
        assert_eq!(r[lone.index()], 0.0);
        assert!((r[a.index()] + r[b.index()] - 1.0).abs() < 1e-9);
    }
}
