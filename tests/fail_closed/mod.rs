mod bounds;
