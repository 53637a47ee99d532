/**
 * Users and their store.
 */
import { readFile } from "fs";

/** A user of the app. */
export interface User {
  id: number;
  name: string;
  greet(other: User): string;
}

export type Id = number | string;

export enum Role {
  Admin,
  Guest,
}

// Keeps users in memory.
export class Store<T extends User> {
  private items: T[] = [];

  constructor(private readonly limit: number) {}

  /** Add one user. */
  add(item: T): void {
    if (this.items.length < this.limit) {
      this.items.push(item);
    }
  }

  get size(): number {
    return this.items.length;
  }
}

export abstract class Base {
  abstract run(): void;
}

export function load(path: string): Promise<string> {
  return new Promise((resolve) => readFile(path, "utf8", (_, d) => resolve(d)));
}

export const double = (n: number): number => {
  return n * 2;
};

namespace Util {
  export function clamp(n: number): number {
    return Math.max(0, n);
  }
}

function overload(a: string): string;
function overload(a: number): number;
function overload(a: any): any {
  return a;
}
