fn main() {
    // The migrations are compiled into the binary by `sqlx::migrate!`: rebuild when they change.
    println!("cargo:rerun-if-changed=migrations");
}
