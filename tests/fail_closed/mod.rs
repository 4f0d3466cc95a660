mod git_policy;
mod unreadable;
