//! One player's network as a union-find with seam windings: the win test of Mobius,
//! incremental (one stone at a time) or from scratch (one pass over a board).
//!
//! Nodes are the 138 cells and, under the network rule, the player's three zones. Each
//! node stores its winding relative to its parent; path compression keeps those sums
//! (a weighted union-find over the group ℤ of windings, as in the parity union-find used
//! for bipartiteness tests). Joining two nodes of one component whose windings disagree
//! closes a cycle whose winding is the difference: that cycle goes round the strip.

use super::flood;
use super::geometry::{CELLS, GEOMETRY};

/// Number of union-find nodes: the cells, then the player's three zones.
pub const NODES: usize = CELLS + 3;
/// Root flag: the component holds a counting loop.
const LOOP: u8 = 8;
/// Zone bits of a root's `info`.
const ZONES: u8 = 7;

/// Which win test applies (from the rule options).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinRule {
    /// DEFAULT: zones are nodes of the network (a piece joins zones through them, loops may
    /// run along them, and the loop may lie in another piece). Off: the `literal` rule,
    /// one group of stones only.
    pub zones_are_nodes: bool,
    /// OPTION: a loop of any non-zero winding counts (DEFAULT: odd winding only).
    pub any_winding: bool,
}

impl Default for WinRule {
    fn default() -> Self {
        WinRule { zones_are_nodes: true, any_winding: false }
    }
}

impl WinRule {
    /// True when a cycle of this winding is a loop that counts.
    fn counts(self, wind: i8) -> bool {
        if self.any_winding { wind != 0 } else { wind & 1 != 0 }
    }
}

/// The union-find of one player. Only the player's own cells (and zone nodes) are
/// meaningful; other entries are stale and reset when a stone is added there.
#[derive(Clone, Debug)]
pub struct Network {
    parent: [u8; NODES],
    /// Winding of each node relative to its parent.
    wind: [i8; NODES],
    /// At roots: zone bits (0..3) and [`LOOP`].
    info: [u8; NODES],
    size: [u8; NODES],
    /// Some piece has joined two zones (network rule).
    two_joined: bool,
    /// Some piece holds a counting loop (network rule).
    looped: bool,
    /// The player qualifies (sticky: networks only grow).
    won: bool,
}

impl Network {
    /// An empty network: only the zone nodes, each a piece holding its own zone.
    pub fn new() -> Network {
        let mut n = Network {
            parent: [0; NODES],
            wind: [0; NODES],
            info: [0; NODES],
            size: [1; NODES],
            two_joined: false,
            looped: false,
            won: false,
        };
        for (i, p) in n.parent.iter_mut().enumerate() {
            *p = i as u8;
        }
        for z in 0..3 {
            n.info[CELLS + z] = 1 << z;
        }
        n
    }

    /// True when the player qualifies under the rule the network was built with.
    pub fn won(&self) -> bool {
        self.won
    }

    /// True when some piece holds all three zones (with [`Network::won`]: the win is by
    /// three zones rather than two and a loop). Only for a network built by
    /// [`Network::build`], whose entries off the player's stones are untouched.
    pub fn joins_three_zones(&self) -> bool {
        (0..NODES).any(|n| self.parent[n] as usize == n && self.info[n] & ZONES == ZONES)
    }

    /// Root of `x` and the winding of `x` relative to it, compressing the path.
    fn find(&mut self, x: usize) -> (usize, i8) {
        let (root, total) = self.find_ro(x);
        // Second pass: point every node of the path at the root with its full winding.
        let (mut node, mut rest) = (x, total);
        while node != root {
            let next = self.parent[node] as usize;
            let w = self.wind[node];
            self.parent[node] = root as u8;
            self.wind[node] = rest;
            rest -= w;
            node = next;
        }
        (root, total)
    }

    /// Root of `x` and the winding of `x` relative to it, without changing anything.
    fn find_ro(&self, x: usize) -> (usize, i8) {
        let (mut node, mut total) = (x, 0i8);
        while self.parent[node] as usize != node {
            total += self.wind[node];
            node = self.parent[node] as usize;
        }
        (node, total)
    }

    /// Joins `u` and `v` by a link on which the winding grows by `w` from `u` to `v`.
    /// Returns the root of the joined piece.
    fn union(&mut self, u: usize, v: usize, w: i8, rule: WinRule) -> usize {
        let (ru, pu) = self.find(u);
        let (rv, pv) = self.find(v);
        if ru == rv {
            if rule.counts(pu + w - pv) {
                self.info[ru] |= LOOP;
            }
            return ru;
        }
        // Winding of rv relative to ru such that v sits at pu + w.
        let d = pu + w - pv;
        let (big, small, d) =
            if self.size[ru] >= self.size[rv] { (ru, rv, d) } else { (rv, ru, -d) };
        self.parent[small] = big as u8;
        self.wind[small] = d;
        self.size[big] += self.size[small];
        self.info[big] |= self.info[small];
        big
    }

    /// Updates the sticky flags from one piece's root information.
    fn note_piece(&mut self, info: u8, rule: WinRule) {
        let zones = (info & ZONES).count_ones();
        let looped = info & LOOP != 0;
        if rule.zones_are_nodes {
            self.two_joined |= zones >= 2;
            self.looped |= looped;
            self.won |= zones == 3 || (self.two_joined && self.looped);
        } else {
            self.won |= zones == 3 || (zones >= 2 && looped);
        }
    }

    /// Adds a stone of the player (colour `me` in `cells`, already placed) on `cell`, joins
    /// it to the player's neighbouring stones and zone, and returns whether the player now
    /// qualifies. `side` is 0 for Red, 1 for Blue (whose zones apply).
    pub fn add_stone(
        &mut self,
        cells: &[u8; CELLS],
        me: u8,
        side: usize,
        cell: usize,
        rule: WinRule,
    ) -> bool {
        let g = &*GEOMETRY;
        self.parent[cell] = cell as u8;
        self.wind[cell] = 0;
        self.size[cell] = 1;
        self.info[cell] = 0;
        let mut root = cell;
        for l in &g.links[cell] {
            if cells[l.to as usize] == me {
                root = self.union(cell, l.to as usize, l.wind, rule);
            }
        }
        if let Some((z, w)) = g.zone_of[side][cell] {
            if rule.zones_are_nodes {
                root = self.union(CELLS + z as usize, cell, w, rule);
            } else {
                let (r, _) = self.find(cell);
                self.info[r] |= 1 << z;
                root = r;
            }
        }
        self.note_piece(self.info[root], rule);
        self.won
    }

    /// Whether the player would qualify after a stone on the empty `cell`, without
    /// changing the network.
    pub fn would_win(
        &self,
        cells: &[u8; CELLS],
        me: u8,
        side: usize,
        cell: usize,
        rule: WinRule,
    ) -> bool {
        if self.won {
            return true;
        }
        let g = &*GEOMETRY;
        // Pieces touched, each with the winding the new stone would have relative to it.
        let mut seen: [(usize, i8); 7] = [(usize::MAX, 0); 7];
        let mut n = 0;
        let mut info = 0u8;
        let mut join = |root: usize, at: i8, info_acc: &mut u8, this: &Network| {
            if let Some(&(_, w)) = seen[..n].iter().find(|(r, _)| *r == root) {
                if rule.counts(at - w) {
                    *info_acc |= LOOP;
                }
            } else {
                seen[n] = (root, at);
                n += 1;
                *info_acc |= this.info[root];
            }
        };
        for l in &g.links[cell] {
            if cells[l.to as usize] == me {
                let (r, p) = self.find_ro(l.to as usize);
                join(r, p - l.wind, &mut info, self);
            }
        }
        if let Some((z, w)) = g.zone_of[side][cell] {
            if rule.zones_are_nodes {
                let (r, p) = self.find_ro(CELLS + z as usize);
                join(r, p + w, &mut info, self);
            } else {
                info |= 1 << z;
            }
        }
        let zones = (info & ZONES).count_ones();
        let looped = info & LOOP != 0;
        if rule.zones_are_nodes {
            zones == 3 || ((self.two_joined || zones >= 2) && (self.looped || looped))
        } else {
            zones == 3 || (zones >= 2 && looped)
        }
    }

    /// The network of the stones of colour `me` on `cells`, built in one pass.
    pub fn build(cells: &[u8; CELLS], me: u8, side: usize, rule: WinRule) -> Network {
        let g = &*GEOMETRY;
        let mut n = Network::new();
        for cell in 0..CELLS {
            if cells[cell] != me {
                continue;
            }
            for l in &g.links[cell] {
                if (l.to as usize) > cell && cells[l.to as usize] == me {
                    n.union(cell, l.to as usize, l.wind, rule);
                }
            }
            if let Some((z, w)) = g.zone_of[side][cell] {
                if rule.zones_are_nodes {
                    n.union(CELLS + z as usize, cell, w, rule);
                } else {
                    let (r, _) = n.find(cell);
                    n.info[r] |= 1 << z;
                }
            }
        }
        for node in 0..NODES {
            // Zone nodes are pieces only under the network rule.
            let own = cells.get(node).map_or(rule.zones_are_nodes, |&c| c == me);
            if own && n.parent[node] as usize == node {
                n.note_piece(n.info[node], rule);
            }
        }
        // The network rule's flags are global: a loop found after the joined piece.
        if rule.zones_are_nodes {
            n.won = n.won || (n.two_joined && n.looped);
        }
        n
    }
}

/// Whether the stones of colour `me` qualify under the DEFAULT win test (network rule,
/// odd loops), computed from scratch by the playouts' bitboard flood ([`super::flood`]).
pub fn default_rule_qualifies(cells: &[u8; CELLS], me: u8, side: usize) -> bool {
    flood::qualifies(flood::stones_of(cells, me), side)
}
