//! [`Game`] for Mobius: the trait's methods over the position of `board.rs`, with its
//! position strings (`fen.rs`) and its drawing (`render.rs`).

use super::board::{EMPTY, Mobius, colour};
use super::geometry::CELLS;
use super::network::Network;
use super::notation::{MobiusMove, parse_syntax};
use super::options::MobiusOptions;
use super::{fen, render};
use crate::core::{EndReason, Ending, Game, MoveError, Outcome, PositionError, Side};

impl Game for Mobius {
    type Move = MobiusMove;
    type Options = MobiusOptions;
    const NAME: &'static str = "mobius";

    fn startpos(opts: &MobiusOptions) -> Mobius {
        Mobius::from_cells([EMPTY; CELLS], Side::P1, opts)
    }

    fn from_fen(s: &str, opts: &MobiusOptions) -> Result<Mobius, PositionError> {
        let (cells, stm) = fen::parse(s, opts)?;
        Ok(Mobius::from_cells(cells, stm, opts))
    }

    fn to_fen(&self) -> String {
        fen::write(&self.cells, self.stm)
    }

    fn side_to_move(&self) -> Side {
        self.stm
    }

    fn generate_moves(&self, out: &mut Vec<MobiusMove>) {
        if self.outcome.is_some() {
            return;
        }
        let empty = self.cells.iter().enumerate().filter(|(_, v)| **v == EMPTY);
        out.extend(empty.map(|(c, _)| MobiusMove(c as u8)));
        if self.swap_available() {
            out.push(MobiusMove::SWAP);
        }
    }

    fn parse_move(&self, s: &str) -> Result<MobiusMove, MoveError> {
        let mv = parse_syntax(s)?;
        if self.outcome.is_some() {
            return Err(MoveError::Illegal(format!("{s}: the game is over")));
        }
        match mv.cell() {
            Some(c) if self.cells[c] != EMPTY => {
                Err(MoveError::Illegal(format!("{s}: the cell is occupied")))
            }
            Some(_) => Ok(mv),
            None if self.swap_available() => Ok(mv),
            None if !self.opts.swap => {
                Err(MoveError::Illegal("swap: the swap rule is off (Mobius Swap)".into()))
            }
            None => Err(MoveError::Illegal("swap: only Blue's first move may swap".into())),
        }
    }

    fn play(&mut self, mv: MobiusMove) {
        match mv.cell() {
            Some(c) => self.place(c),
            None => self.swap(),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The winner's network is rebuilt to tell a win by three zones from one by two zones
    /// and a loop.
    fn ending(&self) -> Option<Ending> {
        let outcome = self.outcome?;
        let reason = match outcome {
            Outcome::Draw => EndReason::BoardFull,
            Outcome::Win(side) => {
                let rule = self.opts.rule;
                let net = Network::build(&self.cells, colour(side), side.index(), rule);
                let group = !rule.zones_are_nodes;
                if net.joins_three_zones() {
                    EndReason::ThreeZones { group }
                } else {
                    EndReason::TwoZonesAndLoop { group }
                }
            }
        };
        Some(Ending { outcome, reason })
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn render(&self) -> String {
        render::draw(self)
    }

    fn perft(&self, depth: u32) -> u64 {
        fn go(pos: &Mobius, depth: u32, moves: &mut Vec<Vec<MobiusMove>>) -> u64 {
            let mut list = moves.pop().unwrap_or_default();
            list.clear();
            pos.generate_moves(&mut list);
            let n = if depth == 1 {
                list.len() as u64
            } else {
                list.iter()
                    .map(|&m| {
                        let mut next = pos.clone();
                        next.play(m);
                        go(&next, depth - 1, moves)
                    })
                    .sum()
            };
            moves.push(list);
            n
        }
        if depth == 0 { 1 } else { go(self, depth, &mut Vec::new()) }
    }
}
