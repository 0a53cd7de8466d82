//! How a Morris network judges `datagen` positions beside the hand evaluation (every
//! 37th line of the data): the means, spreads and correlation of both evaluations, the
//! mean of `eval(White to move) + eval(Black to move)` over the movement positions (twice
//! the tempo), and how often the best move by a one-ply search of each evaluation is the
//! move the game played (the next line), and the same move for both.
//!
//! ```sh
//! cargo run --release --example morris_net_stats -- net.nnue d.data
//! ```

use std::sync::Arc;
use ugine::core::Game;
use ugine::games::morris::{Morris, MorrisOptions};
use ugine::search::Evaluate;
use ugine::search::nnue::{AccumulatorStack, Features, NetEval, Network};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bytes = std::fs::read(&args[1]).unwrap();
    let net = Network::from_bytes(&bytes, Morris::NAME, Morris::FEATURE_COUNT).unwrap();
    let net: Arc<dyn NetEval<Morris>> = Arc::new(net);
    let mut stack = AccumulatorStack::new(net, 4);
    let text = std::fs::read_to_string(&args[2]).unwrap();
    let opts = MorrisOptions::default();
    let (mut n, mut sh, mut sn, mut shh, mut snn, mut shn) = (0f64, 0f64, 0f64, 0f64, 0f64, 0f64);
    let (mut flip_h, mut flip_n, mut nf) = (0f64, 0f64, 0f64);
    let (mut agree, mut total) = (0, 0);
    let lines: Vec<&str> = text.lines().collect();
    let (mut played_h, mut played_n, mut played_total) = (0, 0, 0);
    for (i, line) in lines.iter().enumerate().step_by(37) {
        let next = lines.get(i + 1).map(|l| l.split(" | ").next().unwrap().to_string());
        let fen = line.split(" | ").next().unwrap();
        let pos = Morris::from_fen(fen, &opts).unwrap();
        if pos.outcome().is_some() {
            continue;
        }
        stack.reset();
        let (h, e) = (pos.evaluate() as f64, stack.evaluate(0, &pos) as f64);
        n += 1.0;
        sh += h;
        sn += e;
        shh += h * h;
        snn += e * e;
        shn += h * e;
        let parts: Vec<&str> = fen.split(' ').collect();
        if parts[2] == "0" && parts[3] == "0" {
            let other = format!(
                "{} {} 0 0 {}",
                parts[0],
                if parts[1] == "w" { "b" } else { "w" },
                parts[4]
            );
            if let Ok(q) = Morris::from_fen(&other, &opts)
                && q.outcome().is_none()
            {
                {
                    stack.reset();
                    flip_h += h + q.evaluate() as f64;
                    flip_n += e + stack.evaluate(0, &q) as f64;
                    nf += 1.0;
                }
            }
        }
        // 1-ply move choice: best child by each eval
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let pick = |f: &mut dyn FnMut(&Morris) -> i32| {
            moves
                .iter()
                .map(|&m| {
                    let mut c = pos.clone();
                    c.play(m);
                    (if c.outcome().is_some() { -100000 } else { f(&c) }, m)
                })
                .min_by_key(|x| x.0)
                .unwrap()
                .1
        };
        let mh = pick(&mut |c| c.evaluate());
        let mn = pick(&mut |c| {
            stack.reset();
            stack.evaluate(0, c)
        });
        total += 1;
        if mh == mn {
            agree += 1;
        }
        let played = moves.iter().copied().find(|&m| {
            let mut c = pos.clone();
            c.play(m);
            Some(c.to_fen()) == next
        });
        if let Some(p) = played {
            played_total += 1;
            played_h += (p == mh) as i32;
            played_n += (p == mn) as i32;
        }
    }
    let (mh, mn) = (sh / n, sn / n);
    let cov = shn / n - mh * mn;
    let corr = cov / ((shh / n - mh * mh).sqrt() * (snn / n - mn * mn).sqrt());
    println!(
        "{n} positions: mean hand {mh:.1} net {mn:.1}; sd hand {:.1} net {:.1}; corr {corr:.3}",
        (shh / n - mh * mh).sqrt(),
        (snn / n - mn * mn).sqrt()
    );
    println!(
        "{nf} movement positions: mean eval(w)+eval(b) hand {:.1} net {:.1}",
        flip_h / nf,
        flip_n / nf
    );
    println!("1-ply best move agrees in {agree} of {total}");
    println!("the 5000-node move: hand 1-ply {played_h}, net 1-ply {played_n} of {played_total}");
}
