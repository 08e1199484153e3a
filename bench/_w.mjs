import { createCompiler } from "./.build/compiler.mjs";
const c = createCompiler({ cacheRoot: "/tmp/spw" });
const P = "/work/bench-cache/sympy-head";
const intents = [
  "simplify trig",
  "solve polynomial rational coefficients",
  "latex printer Matrix",
  "integrate exp hangs",
  "factor algebraic field Poly",
  "nsimplify sqrt Rational",
  "Derivative Piecewise conditions",
  "limit E infinity",
  "series expansion log",
  "lambdify numpy Heaviside",
];
await c.compile({ projectRoot: P, intent: "warm up", budget: 8000 });
for (const i of intents) {
  const t = performance.now();
  const cpu = process.cpuUsage();
  const r = await c.compile({ projectRoot: P, intent: i, budget: 8000 });
  const u = process.cpuUsage(cpu);
  console.log(
    Math.round(performance.now() - t),
    Math.round((u.user + u.system) / 1000),
    JSON.stringify(r.trace.timingsMs),
  );
}
