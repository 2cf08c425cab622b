//! The evaluation net's pass against a plain one in f64, and the merge of two cell lists.

use super::*;
use crate::rng::SplitMix64;

fn uniform(rng: &mut SplitMix64) -> f32 {
    (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32
}

fn random_net(shape: EvalShape, seed: u64) -> EvalNet {
    let mut rng = SplitMix64::new(seed);
    let weights = (0..shape.num_weights())
        .map(|_| (uniform(&mut rng) - 0.5) * 0.4)
        .collect();
    EvalNet::new(shape, weights).unwrap()
}

/// A dense observation: planes of mostly zeros, some holding one value throughout.
fn random_observation(shape: &EvalShape, rng: &mut SplitMix64) -> Vec<f32> {
    let mut out = Vec::with_capacity(shape.inputs);
    for _ in 0..shape.planes() {
        match rng.below(4) {
            0 => out.extend(std::iter::repeat_n(uniform(rng), shape.plane)),
            _ => out.extend((0..shape.plane).map(|_| match rng.below(8) {
                0 => 1.0,
                1 => uniform(rng) * 2.0 - 1.0,
                _ => 0.0,
            })),
        }
    }
    out
}

/// The net on two dense views, every matrix multiplied out in f64.
fn reference(net: &EvalNet, mover: &[f32], other: &[f32]) -> f64 {
    let shape = net.shape();
    let mut tensors = Vec::new();
    let mut at = 0;
    for t in shape.tensors() {
        tensors.push((t.shape.clone(), &net.weights()[at..at + t.len()]));
        at += t.len();
    }
    let dense = |x: &[f64], (dims, w): &(Vec<usize>, &[f32]), bias: &[f32]| -> Vec<f64> {
        let (n, m) = (dims[0], dims[1]);
        (0..m)
            .map(|j| {
                f64::from(bias[j]) + (0..n).map(|i| x[i] * f64::from(w[i * m + j])).sum::<f64>()
            })
            .collect()
    };
    let relu = |v: Vec<f64>| v.into_iter().map(|x| x.max(0.0)).collect::<Vec<_>>();
    let view = |obs: &[f32]| {
        let x: Vec<f64> = obs.iter().map(|&v| f64::from(v)).collect();
        relu(dense(&x, &tensors[0], tensors[1].1))
    };
    let mut h = view(mover);
    h.extend(view(other));
    for i in 0..shape.hidden.len() {
        h = relu(dense(&h, &tensors[2 + 2 * i], tensors[3 + 2 * i].1));
    }
    let n = tensors.len();
    dense(&h, &tensors[n - 2], tensors[n - 1].1)[0].tanh()
}

fn cells_of(observation: &[f32], plane: usize) -> (Vec<Cell>, Vec<Cell>) {
    let (mut cells, mut planes) = (Vec::new(), Vec::new());
    crate::game::observation_cells_of(observation, plane, &mut cells, &mut planes);
    (cells, planes)
}

#[test]
fn the_pass_is_the_plain_one() {
    let mut rng = SplitMix64::new(3);
    for (seed, hidden, features) in [(1, vec![32], 64), (2, vec![], 40), (3, vec![24, 8], 96)] {
        let shape = EvalShape {
            inputs: 6 * 20,
            plane: 20,
            features,
            hidden,
        };
        let net = random_net(shape.clone(), seed);
        let mut scratch = HeadScratch::new();
        for _ in 0..20 {
            let (a, b) = (
                random_observation(&shape, &mut rng),
                random_observation(&shape, &mut rng),
            );
            let ((ac, ap), (bc, bp)) = (cells_of(&a, 20), cells_of(&b, 20));
            let view = |cells, planes| View { cells, planes };
            let got = net
                .evaluate(view(&ac, &ap), view(&bc, &bp), 0.0, &mut scratch)
                .unwrap();
            let want = reference(&net, &a, &b);
            assert!((f64::from(got) - want).abs() < 1e-5, "{got} against {want}");
        }
    }
}

#[test]
fn an_update_by_the_changes_is_a_fresh_accumulator() {
    let mut rng = SplitMix64::new(9);
    let shape = EvalShape {
        inputs: 5 * 16,
        plane: 16,
        features: 48,
        hidden: vec![8],
    };
    let net = random_net(shape.clone(), 4);
    let mut old = random_observation(&shape, &mut rng);
    let mut acc = vec![0.0; 48];
    let (cells, planes) = cells_of(&old, 16);
    net.refresh(
        View {
            cells: &cells,
            planes: &planes,
        },
        &mut acc,
    );
    for _ in 0..200 {
        let mut new = old.clone();
        // A few cells change, now and then a plane becomes uniform or stops being so.
        for _ in 0..rng.below(4) {
            let i = rng.below(new.len() as u64) as usize;
            new[i] = [0.0, 1.0, 0.5][rng.below(3) as usize];
        }
        if rng.below(10) == 0 {
            let p = rng.below(5) as usize;
            new[p * 16..(p + 1) * 16].fill(uniform(&mut rng));
        }
        let ((oc, op), (nc, np)) = (cells_of(&old, 16), cells_of(&new, 16));
        let (mut dc, mut dp) = (Vec::new(), Vec::new());
        diff_cells(&oc, &nc, &mut dc);
        diff_cells(&op, &np, &mut dp);
        net.update(&dc, &dp, &mut acc);
        let mut fresh = vec![0.0; 48];
        net.refresh(
            View {
                cells: &nc,
                planes: &np,
            },
            &mut fresh,
        );
        for (a, b) in acc.iter().zip(&fresh) {
            assert!((a - b).abs() < 1e-4, "{a} against {b}");
        }
        old = new;
    }
}

#[test]
fn the_changes_between_two_lists() {
    let old = [(1, 1.0), (3, 0.5), (7, 1.0)];
    let new = [(0, 2.0), (3, 0.5), (7, 0.25), (9, 1.0)];
    let mut changes = Vec::new();
    diff_cells(&old, &new, &mut changes);
    assert_eq!(changes, [(0, 2.0), (1, -1.0), (7, -0.75), (9, 1.0)]);
    changes.clear();
    diff_cells(&new, &[], &mut changes);
    assert_eq!(changes, [(0, -2.0), (3, -0.5), (7, -0.25), (9, -1.0)]);
}

#[test]
fn bad_nets_are_refused() {
    let shape = EvalShape {
        inputs: 40,
        plane: 20,
        features: 8,
        hidden: vec![4],
    };
    let n = shape.num_weights();
    assert_eq!(n, 40 * 8 + 8 + 16 * 4 + 4 + 4 + 1);
    assert!(EvalNet::new(shape.clone(), vec![0.0; n - 1]).is_err());
    let mut weights = vec![0.0; n];
    weights[7] = f32::NAN;
    assert!(EvalNet::new(shape.clone(), weights).is_err());
    for bad in [
        EvalShape {
            plane: 30,
            ..shape.clone()
        },
        EvalShape {
            features: 0,
            ..shape.clone()
        },
        EvalShape {
            hidden: vec![0],
            ..shape.clone()
        },
        EvalShape {
            hidden: vec![1; MAX_LAYERS + 1],
            ..shape.clone()
        },
    ] {
        let n = bad.num_weights();
        assert!(EvalNet::new(bad, vec![0.0; n]).is_err());
    }
}

/// Long lists that differ in a few places: the block skipping finds every change.
#[test]
fn the_changes_between_long_lists_are_every_change() {
    let mut rng = SplitMix64::new(21);
    for _ in 0..500 {
        let dense_old: Vec<f32> = (0..300)
            .map(|_| if rng.below(3) == 0 { 1.0 } else { 0.0 })
            .collect();
        let mut dense_new = dense_old.clone();
        for _ in 0..rng.below(6) {
            let i = rng.below(300) as usize;
            dense_new[i] = [0.0, 1.0, 0.5][rng.below(3) as usize];
        }
        let list = |d: &[f32]| -> Vec<Cell> {
            d.iter()
                .enumerate()
                .filter(|(_, &v)| v != 0.0)
                .map(|(i, &v)| (i as u32, v))
                .collect()
        };
        let want: Vec<Cell> = (0..300)
            .filter(|&i| dense_old[i] != dense_new[i])
            .map(|i| (i as u32, dense_new[i] - dense_old[i]))
            .collect();
        let mut got = Vec::new();
        diff_cells(&list(&dense_old), &list(&dense_new), &mut got);
        got.sort_by_key(|&(i, _)| i);
        assert_eq!(got, want);
    }
}

#[test]
fn a_net_on_the_heuristic_adds_its_logit_to_the_heuristics() {
    let mut rng = SplitMix64::new(21);
    let shape = EvalShape {
        inputs: 4 * 10,
        plane: 10,
        features: 16,
        hidden: vec![8],
    };
    let plain = random_net(shape.clone(), 6);
    let on = plain.clone().with_base(Base::Heuristic);
    let mut zeroed = plain.weights().to_vec();
    let value_weights = shape
        .tensors()
        .iter()
        .rev()
        .take(2)
        .map(TensorSpec::len)
        .sum::<usize>();
    let n = zeroed.len();
    zeroed[n - value_weights..].fill(0.0);
    let nothing = EvalNet::new(shape.clone(), zeroed)
        .unwrap()
        .with_base(Base::Heuristic);
    let mut scratch = HeadScratch::new();
    for _ in 0..20 {
        let (a, b) = (
            random_observation(&shape, &mut rng),
            random_observation(&shape, &mut rng),
        );
        let ((ac, ap), (bc, bp)) = (cells_of(&a, 10), cells_of(&b, 10));
        let view = |cells, planes| View { cells, planes };
        let base = (rng.below(2001) as f32 - 1000.0) / 1000.0;
        let alone = plain
            .evaluate(view(&ac, &ap), view(&bc, &bp), base, &mut scratch)
            .unwrap();
        let got = on
            .evaluate(view(&ac, &ap), view(&bc, &bp), base, &mut scratch)
            .unwrap();
        let want = (f64::from(alone).atanh()
            + f64::from(base.clamp(-BASE_CLAMP, BASE_CLAMP)).atanh())
        .tanh();
        assert!((f64::from(got) - want).abs() < 1e-5, "{got} against {want}");
        // A net whose value layer is zero scores as the heuristic does.
        let same = nothing
            .evaluate(view(&ac, &ap), view(&bc, &bp), base, &mut scratch)
            .unwrap();
        assert!(
            (same - base.clamp(-BASE_CLAMP, BASE_CLAMP)).abs() < 1e-5,
            "{same} against {base}"
        );
    }
}
