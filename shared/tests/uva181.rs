//! UVa 181 against the statement's sample.

use parlor_shared::uva181;

#[test]
fn the_statement_sample_gives_the_statement_answer() {
    let input = include_str!("data/uva181_sample.txt");
    assert_eq!(uva181::solve(input).unwrap(), " 22  0 68  0 14\n");
}
