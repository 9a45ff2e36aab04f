"""A travelogue game as a pure value: its state, the actions that change it, and the
events and history each action leaves ("Rules", "When All The Flags Are Gone", "Getting
Caught, Getting Away"). The dice come in as a parameter; nothing here touches I/O."""
