"""What people see and hear: screens, the display font, news in words, sound, the terminal."""
