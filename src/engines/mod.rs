//! Baseline engines that measure the project's progress.

pub mod random;
