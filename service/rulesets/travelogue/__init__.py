"""*Bullseye: an urgent travelogue* (Judson Lester): a GM-less chase game for 4–6 players."""
