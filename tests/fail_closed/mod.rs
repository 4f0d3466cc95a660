mod unreadable;
