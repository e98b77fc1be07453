"""The vision service: reads frames with the readers, checks each dealer result against them."""
