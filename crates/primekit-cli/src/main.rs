//! `primekit`: the command-line front end; everything lives in the library target
//! ([`primekit_cli`]), which `primekit-lab` shares.

fn main() -> std::process::ExitCode {
    primekit_cli::main()
}
