//! The `htmltok` command-line program. See `htmltok --help`, and [`cli`] for how the
//! subcommands are organised.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
