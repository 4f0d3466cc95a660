mod git_policy;
