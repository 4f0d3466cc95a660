mod output;
