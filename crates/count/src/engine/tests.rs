//! The engine's tests: made-up counters (numbers, batches, spreads, failures) run through
//! [`super::run`].

use super::*;

/// Task `i` finds `i` solutions.
struct Numbers(usize);

impl Counter for Numbers {
    fn tasks(&self) -> usize {
        self.0
    }
    fn count(&self, ids: &[u32]) -> Result<Vec<Tally>> {
        let t = |i: u32| Tally {
            total: i as u128,
            classes: None,
            nodes: 1,
        };
        Ok(ids.iter().map(|&i| t(i)).collect())
    }
    fn estimates(&self) -> Vec<u64> {
        vec![1; self.0]
    }
    fn planned(&self) -> Tally {
        Tally::default()
    }
}

struct Seen(Vec<u32>);

impl Observer for Seen {
    fn finished(&mut self, id: u32, _: &Tally) -> Result<()> {
        self.0.push(id);
        Ok(())
    }
}

/// A method that pays for each call ([`Counter::batch`]) gets larger batches: an eighth
/// of the run's tasks, at most what it asks.
#[test]
fn a_method_that_pays_per_call_gets_large_batches() {
    struct PerCall(std::sync::Mutex<Vec<usize>>);
    impl Counter for PerCall {
        fn tasks(&self) -> usize {
            4000
        }
        fn count(&self, ids: &[u32]) -> Result<Vec<Tally>> {
            self.0.lock().unwrap().push(ids.len());
            Numbers(4000).count(ids)
        }
        fn estimates(&self) -> Vec<u64> {
            vec![1; 4000]
        }
        fn planned(&self) -> Tally {
            Tally::default()
        }
        fn batch(&self) -> Option<usize> {
            Some(300)
        }
    }
    let c = Arc::new(PerCall(std::sync::Mutex::new(Vec::new())));
    let flag = AtomicBool::new(false);
    let todo: Vec<u32> = (0..4000).collect();
    run(c.clone(), todo, 2, &flag, &mut Seen(Vec::new())).unwrap();
    let sizes = c.0.lock().unwrap().clone();
    assert_eq!(sizes.iter().sum::<usize>(), 4000);
    assert_eq!(sizes.iter().max(), Some(&300), "{sizes:?}");
    let todo: Vec<u32> = (0..800).collect();
    c.0.lock().unwrap().clear();
    run(c.clone(), todo, 2, &flag, &mut Seen(Vec::new())).unwrap();
    assert_eq!(c.0.lock().unwrap().iter().max(), Some(&100));
}

/// A method that fails (a GPU fault) on one batch ends the run with its error, not a
/// panic; the batches finished before it still reach the observer (the checkpoint).
#[test]
fn a_failing_batch_ends_the_run_with_its_error_and_keeps_what_finished() {
    struct Failing;
    impl Counter for Failing {
        fn tasks(&self) -> usize {
            1000
        }
        fn count(&self, ids: &[u32]) -> Result<Vec<Tally>> {
            if ids.contains(&500) {
                return Err(Error::Device("the GPU fell off the bus".into()));
            }
            Numbers(1000).count(ids)
        }
        fn estimates(&self) -> Vec<u64> {
            vec![1; 1000]
        }
        fn planned(&self) -> Tally {
            Tally::default()
        }
    }
    let mut seen = Seen(Vec::new());
    let flag = AtomicBool::new(false);
    let todo: Vec<u32> = (0..1000).collect();
    let e = run(Arc::new(Failing), todo, 1, &flag, &mut seen).unwrap_err();
    assert_eq!(e, Error::Device("the GPU fell off the bus".into()));
    assert_eq!(e.exit_code(), 1);
    // One thread takes the batches in order: every task before the failing batch's.
    assert!(
        seen.0.len() >= 480 && seen.0.len() < 500,
        "{}",
        seen.0.len()
    );
    assert!(seen.0.iter().all(|&i| i < 500));
}

#[test]
fn every_task_is_counted_once_and_streamed() {
    let mut seen = Seen(Vec::new());
    let todo: Vec<u32> = (0..100).filter(|i| i % 3 != 0).collect();
    let flag = AtomicBool::new(false);
    let ran = run(Arc::new(Numbers(100)), todo.clone(), 3, &flag, &mut seen).unwrap();
    assert!(!ran.cancelled);
    assert_eq!(ran.done, todo.len());
    assert_eq!(
        ran.tally.total,
        todo.iter().map(|&i| i as u128).sum::<u128>()
    );
    seen.0.sort_unstable();
    assert_eq!(seen.0, todo);
}

/// One task whose work is 64 pieces spread with rayon: its tally is how many threads
/// counted a piece.
struct Spread;

impl Counter for Spread {
    fn tasks(&self) -> usize {
        1
    }
    fn count(&self, ids: &[u32]) -> Result<Vec<Tally>> {
        use rayon::prelude::*;
        let mut by: Vec<usize> = (0..64)
            .into_par_iter()
            .map(|_| {
                std::thread::sleep(Duration::from_millis(5));
                rayon::current_thread_index().expect("on a worker of the pool")
            })
            .collect();
        by.sort_unstable();
        by.dedup();
        let t = Tally {
            total: by.len() as u128,
            classes: None,
            nodes: 1,
        };
        Ok(vec![t; ids.len()])
    }
    fn estimates(&self) -> Vec<u64> {
        vec![1]
    }
    fn planned(&self) -> Tally {
        Tally::default()
    }
    fn spreads(&self) -> bool {
        true
    }
}

/// A run of one task on four workers: the workers with no task of their own take parts
/// of the one there is (every core on one task), and the task still streams once.
#[test]
fn workers_without_a_task_take_parts_of_the_tasks_running() {
    let mut seen = Seen(Vec::new());
    let flag = AtomicBool::new(false);
    let ran = run(Arc::new(Spread), vec![0], 4, &flag, &mut seen).unwrap();
    assert_eq!(seen.0, vec![0]);
    assert!(ran.tally.total > 1, "one worker counted the whole task");
    let alone = run(Arc::new(Spread), vec![0], 1, &flag, &mut ()).unwrap();
    assert_eq!(alone.tally.total, 1);
}

#[test]
fn a_raised_flag_stops_the_run_and_bad_thread_counts_are_refused() {
    let flag = AtomicBool::new(true);
    let ran = run(
        Arc::new(Numbers(10_000)),
        (0..10_000).collect(),
        1,
        &flag,
        &mut (),
    );
    assert!(ran.unwrap().done <= 10_000);
    for t in [0, MAX_THREADS + 1] {
        let e = run(Arc::new(Numbers(1)), vec![0], t, &flag, &mut ()).unwrap_err();
        assert!(matches!(e, Error::Threads(x) if x == t), "{e}");
    }
}
