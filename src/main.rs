fn main() {
    std::process::exit(nogo::cli::run());
}
