mod git_policy;
mod output;
mod unreadable;
