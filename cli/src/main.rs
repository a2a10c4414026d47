//! The `htmltok` command-line program. See `htmltok --help`, and the `htmltok_cli` library
//! for how the subcommands are organised.

fn main() -> std::process::ExitCode {
    htmltok_cli::main()
}
