#!/usr/bin/env node
// A tiny event emitter.

const EventEmitter = require("events");

/** Emits ticks. */
class Clock extends EventEmitter {
  constructor(period) {
    super();
    this.period = period;
  }

  /** Start ticking. */
  start() {
    this.timer = setInterval(() => this.emit("tick"), this.period);
  }

  stop() {
    clearInterval(this.timer);
  }
}

function* ids() {
  let i = 0;
  while (true) yield i++;
}

const format = function (date) {
  return date.toISOString();
};

export const render = (el) => <span>{el}</span>;

export default function main() {
  function inner() {
    return 1;
  }
  const local = () => inner();
  return local();
}
