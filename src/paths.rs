//! What a path says about whose code a file is, for the rules that treat third-party code the
//! project commits differently from its own.

/// Where a package manager commits its own release or plugins (Yarn Berry's `.yarn/releases`
/// and `.yarn/plugins`, its Plug'n'Play loader): a minified third-party bundle the project
/// neither writes nor reviews line by line. The description says which, for messages.
pub fn vendored_tool(path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    if path.starts_with(".yarn/releases/") || path.contains("/.yarn/releases/") {
        Some("a Yarn release the project commits (.yarn/releases)")
    } else if path.starts_with(".yarn/plugins/") || path.contains("/.yarn/plugins/") {
        Some("a Yarn plugin bundle the project commits (.yarn/plugins)")
    } else if matches!(name, ".pnp.cjs" | ".pnp.loader.mjs" | ".pnp.js") {
        Some("Yarn's generated Plug'n'Play loader")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_manager_bundles_are_vendored_and_project_code_is_not() {
        assert!(vendored_tool(".yarn/releases/yarn-4.18.0.cjs").is_some());
        assert!(vendored_tool("packages/app/.yarn/plugins/@yarnpkg/plugin-x.cjs").is_some());
        assert!(vendored_tool(".pnp.cjs").is_some());
        assert!(vendored_tool("src/releases/yarn.cjs").is_none());
        assert!(vendored_tool("scripts/.yarnrc.cjs").is_none());
    }
}
