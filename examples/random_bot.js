#!/usr/bin/env node
// A Boardroom bot in JavaScript: it plays a random legal move (see docs/bots.md).
// Each turn it reads "GAME YOU TIME_MS MOVES LEGAL" and prints its move.
//     boardroom bot --cmd "node examples/random_bot.js" --create connect4 --ai random

const readline = require("readline");

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const [game, you, timeMs, moves, legal] = line.split(" ");
  const choices = legal.split(",");
  console.log(choices[Math.floor(Math.random() * choices.length)]);
  console.error(`${game} as ${you}: ${timeMs} ms left, moves so far: ${moves}`);
});
