//! Rebuilds the binary when the embedded web client changes (`include_dir!` alone does not
//! tell cargo to watch the directory).

fn main() {
    println!("cargo:rerun-if-changed=../web");
}
