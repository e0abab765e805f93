// The browser apps' shared pieces (the console and the hosted auth pages): their look, how a call runs, and how its failure is read and shown.
export * from './problem';
export * from './ProblemAlert';
export * from './use-call';
export * from './theme';
export * from './SecondFactor';
