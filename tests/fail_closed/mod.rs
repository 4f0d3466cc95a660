mod bounds;
mod git_policy;
mod output;
mod rules;
mod unreadable;
