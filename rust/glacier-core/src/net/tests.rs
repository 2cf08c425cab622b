//! The forward pass against a plain one: every weight matrix multiplied out in full, in f64.

use super::*;
use crate::game::ObservationCells;
use crate::rng::SplitMix64;

fn uniform(rng: &mut SplitMix64) -> f32 {
    (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32
}

fn random_net(shape: NetShape, seed: u64) -> Net {
    let mut rng = SplitMix64::new(seed);
    let weights = (0..shape.num_weights())
        .map(|_| (uniform(&mut rng) - 0.5) * 0.4)
        .collect();
    Net::new(shape, weights).unwrap()
}

/// Observations shaped like the games': planes mostly zeros with some ones and a few other
/// values, some planes holding one value throughout (ones, a fraction, or zeros).
fn random_observations(n: usize, shape: &NetShape, rng: &mut SplitMix64) -> Vec<f32> {
    let mut out = Vec::with_capacity(n * shape.inputs);
    for _ in 0..n * shape.inputs / shape.plane {
        match rng.below(5) {
            0 => out.extend(std::iter::repeat_n(1.0, shape.plane)),
            1 => {
                let c = uniform(rng) * 2.0 - 1.0;
                out.extend(std::iter::repeat_n(c, shape.plane));
            }
            _ => out.extend((0..shape.plane).map(|_| match rng.below(10) {
                0 => 1.0,
                1 => uniform(rng) * 3.0 - 1.0,
                _ => 0.0,
            })),
        }
    }
    out
}

/// Every tensor of `net` as its own f64 matrix, in [`NetShape::tensors`] order.
fn tensors(net: &Net) -> Vec<(Vec<usize>, Vec<f64>)> {
    let mut at = 0;
    net.shape()
        .tensors()
        .into_iter()
        .map(|t| {
            let data = net.weights()[at..at + t.len()]
                .iter()
                .map(|&w| f64::from(w))
                .collect();
            at += t.len();
            (t.shape, data)
        })
        .collect()
}

/// The reference forward pass of one observation of `mover`: (logits, values relative to
/// the mover).
fn reference(net: &Net, observation: &[f32], mover: usize) -> (Vec<f64>, Vec<f64>) {
    let tensors = tensors(net);
    let mut x: Vec<f64> = observation.iter().map(|&v| f64::from(v)).collect();
    x.extend((0..net.shape().players).map(|p| if p == mover { 1.0 } else { 0.0 }));
    let layers = net.shape().hidden.len();
    for l in 0..layers {
        let (shape, w) = &tensors[2 * l];
        let (_, b) = &tensors[2 * l + 1];
        let (rows, cols) = (shape[0], shape[1]);
        x = (0..cols)
            .map(|j| {
                let sum: f64 = (0..rows).map(|i| x[i] * w[i * cols + j]).sum::<f64>() + b[j];
                sum.max(0.0)
            })
            .collect();
    }
    let (pshape, pw) = &tensors[2 * layers];
    let (_, pb) = &tensors[2 * layers + 1];
    let logits = (0..pshape[0])
        .map(|a| {
            (0..pshape[1])
                .map(|i| x[i] * pw[a * pshape[1] + i])
                .sum::<f64>()
                + pb[a]
        })
        .collect();
    let (vshape, vw) = &tensors[2 * layers + 2];
    let (_, vb) = &tensors[2 * layers + 3];
    let values = (0..vshape[1])
        .map(|p| {
            ((0..vshape[0])
                .map(|i| x[i] * vw[i * vshape[1] + p])
                .sum::<f64>()
                + vb[p])
                .tanh()
        })
        .collect();
    (logits, values)
}

fn close(got: f32, want: f64) -> bool {
    (f64::from(got) - want).abs() <= 1e-4 * (1.0 + want.abs())
}

fn shapes() -> Vec<NetShape> {
    vec![
        // Ice Cube Checkers-like, one hidden layer.
        NetShape {
            inputs: 120,
            plane: 12,
            hidden: vec![64],
            actions: 15,
            players: 2,
        },
        // Chess-like: large and sparse, many actions, widths not multiples of 8.
        NetShape {
            inputs: 1472,
            plane: 64,
            hidden: vec![96, 37, 64],
            actions: 4288,
            players: 2,
        },
        // E-like with six players.
        NetShape {
            inputs: 2000,
            plane: 2000,
            hidden: vec![128, 128],
            actions: 700,
            players: 6,
        },
    ]
}

#[test]
fn forward_all_matches_the_reference() {
    for (s, shape) in shapes().into_iter().enumerate() {
        let net = random_net(shape.clone(), 7 + s as u64);
        let mut rng = SplitMix64::new(99 + s as u64);
        let n = 9;
        let observations = random_observations(n, &shape, &mut rng);
        let mut logits = vec![0.0; n * shape.actions];
        let mut values = vec![0.0; n * shape.players];
        let mut scratch = Scratch::new();
        let to_play: Vec<usize> = (0..n).map(|i| i % shape.players).collect();
        net.forward_all(
            n,
            &observations,
            &to_play,
            &mut logits,
            &mut values,
            &mut scratch,
        )
        .unwrap();
        for row in 0..n {
            let obs = &observations[row * shape.inputs..(row + 1) * shape.inputs];
            let (want_logits, want_values) = reference(&net, obs, to_play[row]);
            for (a, &want) in want_logits.iter().enumerate() {
                let got = logits[row * shape.actions + a];
                assert!(
                    close(got, want),
                    "shape {s} row {row} logit {a}: {got} vs {want}"
                );
            }
            for (p, &want) in want_values.iter().enumerate() {
                let got = values[row * shape.players + p];
                assert!(
                    close(got, want),
                    "shape {s} row {row} value {p}: {got} vs {want}"
                );
            }
        }
    }
}

#[test]
fn evaluate_gives_legal_logits_and_values_in_player_order() {
    for (s, shape) in shapes().into_iter().enumerate() {
        let net = random_net(shape.clone(), 17 + s as u64);
        let mut rng = SplitMix64::new(3 + s as u64);
        let n = 12;
        let observations = random_observations(n, &shape, &mut rng);
        let legal: Vec<bool> = (0..n * shape.actions).map(|_| rng.below(5) == 0).collect();
        let to_play: Vec<usize> = (0..n)
            .map(|_| rng.below(shape.players as u64) as usize)
            .collect();
        // The legal actions listed as a search lists them (leaf after leaf).
        let rows: Vec<Vec<usize>> = (0..n)
            .map(|r| {
                (0..shape.actions)
                    .filter(|&a| legal[r * shape.actions + a])
                    .collect()
            })
            .collect();
        let counts: Vec<usize> = rows.iter().map(Vec::len).collect();
        let listed: Vec<usize> = rows.concat();
        let mut cells = ObservationCells::new();
        for row in observations.chunks_exact(shape.inputs) {
            cells.push_dense(row, shape.plane);
        }
        let dense_listed = (LeafObservations::Dense(&observations), &legal[..]);
        let forms = [
            (LeafObservations::Dense(&observations), &legal[..], None),
            (
                dense_listed.0,
                dense_listed.1,
                Some((&counts[..], &listed[..])),
            ),
            // The cells alone, the mask left out: what a search hands the net.
            (
                LeafObservations::Cells(&cells),
                &[][..],
                Some((&counts[..], &listed[..])),
            ),
        ];
        let mut first: Option<(Vec<f32>, Vec<f32>)> = None;
        for (observed, mask, listing) in forms {
            const UNTOUCHED: f32 = -12345.0;
            let mut logits = vec![UNTOUCHED; n * shape.actions];
            let mut values = vec![0.0; n * shape.players];
            let mut scratch = Scratch::new();
            let leaves = Leaves {
                len: n,
                observations: observed,
                legal: mask,
                to_play: &to_play,
                listed: listing,
            };
            net.evaluate(&leaves, &mut logits, &mut values, &mut scratch)
                .unwrap();
            // Every form gives the same numbers, to the bit.
            match &first {
                None => first = Some((logits.clone(), values.clone())),
                Some((l, v)) => {
                    assert!(l
                        .iter()
                        .zip(&logits)
                        .all(|(a, b)| a.to_bits() == b.to_bits()));
                    assert!(v
                        .iter()
                        .zip(&values)
                        .all(|(a, b)| a.to_bits() == b.to_bits()));
                }
            }
            for row in 0..n {
                let obs = &observations[row * shape.inputs..(row + 1) * shape.inputs];
                let (want_logits, want_values) = reference(&net, obs, to_play[row]);
                for (a, &want) in want_logits.iter().enumerate() {
                    let got = logits[row * shape.actions + a];
                    if legal[row * shape.actions + a] {
                        assert!(
                            close(got, want),
                            "shape {s} row {row} logit {a}: {got} vs {want}"
                        );
                    } else {
                        assert_eq!(got, UNTOUCHED, "an illegal action's logit was written");
                    }
                }
                for (k, &want) in want_values.iter().enumerate() {
                    let player = (to_play[row] + k) % shape.players;
                    let got = values[row * shape.players + player];
                    assert!(
                        close(got, want),
                        "shape {s} row {row} player {player}: {got} vs {want}"
                    );
                }
            }
        }
    }
}

/// Whether `a` and `b` hold the same floats, to the bit.
fn same_bits(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// The pass the build chose (on x86-64 with the feature `avx2`, the AVX2 one where this CPU
/// has AVX2) gives what the portable pass, called directly, gives, to the bit: so every CPU
/// and every architecture plays a net alike.
#[test]
fn the_chosen_forward_pass_is_the_portable_one_to_the_bit() {
    #[cfg(target_arch = "x86_64")]
    eprintln!(
        "this CPU has AVX2: {}; the AVX2 pass is built: {}",
        std::arch::is_x86_feature_detected!("avx2"),
        cfg!(feature = "avx2")
    );
    for (s, shape) in shapes().into_iter().enumerate() {
        let net = random_net(shape.clone(), 31 + s as u64);
        let mut rng = SplitMix64::new(41 + s as u64);
        let n = 7;
        let observations = random_observations(n, &shape, &mut rng);
        let to_play: Vec<usize> = (0..n).map(|i| (i * 5) % shape.players).collect();
        let legal: Vec<bool> = (0..n * shape.actions).map(|_| rng.below(4) == 0).collect();
        let (rows_of_logits, rows_of_values) = (n * shape.actions, n * shape.players);
        let mut runs = Vec::new();
        for portable in [false, true] {
            let (mut logits, mut values) = (vec![0.0; rows_of_logits], vec![0.0; rows_of_values]);
            let mut scratch = Scratch::new();
            scratch.fit(&net);
            if portable {
                forward_rows_portable(
                    &net,
                    n,
                    &observations,
                    &to_play,
                    &mut logits,
                    &mut values,
                    &mut scratch,
                );
            } else {
                net.forward_all(
                    n,
                    &observations,
                    &to_play,
                    &mut logits,
                    &mut values,
                    &mut scratch,
                )
                .unwrap();
            }
            let leaves = Leaves {
                len: n,
                observations: LeafObservations::Dense(&observations),
                legal: &legal,
                to_play: &to_play,
                listed: None,
            };
            let (mut legal_logits, mut legal_values) =
                (vec![0.0; rows_of_logits], vec![0.0; rows_of_values]);
            if portable {
                evaluate_rows_portable(
                    &net,
                    &leaves,
                    &mut legal_logits,
                    &mut legal_values,
                    &mut scratch,
                );
            } else {
                net.evaluate(&leaves, &mut legal_logits, &mut legal_values, &mut scratch)
                    .unwrap();
            }
            runs.push((logits, values, legal_logits, legal_values));
        }
        let (chosen, portable) = (&runs[0], &runs[1]);
        assert!(
            same_bits(&chosen.0, &portable.0),
            "shape {s}: forward_all logits"
        );
        assert!(
            same_bits(&chosen.1, &portable.1),
            "shape {s}: forward_all values"
        );
        assert!(
            same_bits(&chosen.2, &portable.2),
            "shape {s}: evaluate logits"
        );
        assert!(
            same_bits(&chosen.3, &portable.3),
            "shape {s}: evaluate values"
        );
        assert!(chosen.0.iter().any(|&x| x != 0.0) && chosen.3.iter().any(|&x| x != 0.0));
    }
}

#[test]
fn the_scratch_serves_nets_of_any_width_in_turn() {
    let shapes = shapes();
    let nets: Vec<Net> = shapes.iter().map(|s| random_net(s.clone(), 5)).collect();
    let mut scratch = Scratch::new();
    let mut rng = SplitMix64::new(1);
    for net in nets.iter().chain(nets.iter().rev()) {
        let shape = net.shape();
        let obs = random_observations(1, shape, &mut rng);
        let mut logits = vec![0.0; shape.actions];
        let mut values = vec![0.0; shape.players];
        let mover = shape.players - 1;
        net.forward_all(1, &obs, &[mover], &mut logits, &mut values, &mut scratch)
            .unwrap();
        let (want_logits, want_values) = reference(net, &obs, mover);
        assert!(logits.iter().zip(&want_logits).all(|(&g, &w)| close(g, w)));
        assert!(values.iter().zip(&want_values).all(|(&g, &w)| close(g, w)));
    }
}

#[test]
fn bad_nets_and_buffers_are_refused() {
    let shape = NetShape {
        inputs: 10,
        plane: 5,
        hidden: vec![4],
        actions: 3,
        players: 2,
    };
    let n = shape.num_weights();
    assert_eq!(n, (10 + 2) * 4 + 4 + 3 * 4 + 3 + 4 * 2 + 2);
    assert!(Net::new(shape.clone(), vec![0.0; n - 1]).is_err());
    let mut weights = vec![0.0; n];
    weights[5] = f32::NAN;
    assert!(Net::new(shape.clone(), weights.clone()).is_err());
    weights[5] = f32::INFINITY;
    assert!(Net::new(shape.clone(), weights).is_err());
    for bad in [
        NetShape {
            hidden: vec![],
            ..shape.clone()
        },
        NetShape {
            hidden: vec![0],
            ..shape.clone()
        },
        NetShape {
            hidden: vec![MAX_WIDTH + 1],
            ..shape.clone()
        },
        NetShape {
            inputs: 0,
            ..shape.clone()
        },
        NetShape {
            plane: 3,
            ..shape.clone()
        },
        NetShape {
            players: 0,
            ..shape.clone()
        },
    ] {
        assert!(Net::new(bad.clone(), vec![0.0; bad.num_weights()]).is_err());
    }
    let net = Net::new(shape.clone(), vec![0.0; n]).unwrap();
    let mut scratch = Scratch::new();
    let (mut logits, mut values) = (vec![0.0; 6], vec![0.0; 4]);
    assert!(net
        .forward_all(
            2,
            &[0.0; 19],
            &[0, 1],
            &mut logits,
            &mut values,
            &mut scratch
        )
        .is_err());
    assert!(net
        .forward_all(
            2,
            &[0.0; 20],
            &[0, 1],
            &mut logits,
            &mut values,
            &mut scratch
        )
        .is_ok());
    let legal = [true; 6];
    let zeros = [0.0; 20];
    let mut evaluate = |legal: &[bool], to_play: &[usize]| {
        let leaves = Leaves {
            len: 2,
            observations: LeafObservations::Dense(&zeros),
            legal,
            to_play,
            listed: None,
        };
        net.evaluate(&leaves, &mut logits, &mut values, &mut scratch)
    };
    assert!(evaluate(&legal, &[0, 2]).is_err());
    assert!(evaluate(&legal[..5], &[0, 1]).is_err());
    assert!(evaluate(&legal, &[0, 1]).is_ok());
}
