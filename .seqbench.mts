import { QueryTypes } from "sequelize";
import { startEmbeddedPostgres } from "/work/main/app/models/embedded-postgres.server";
import { createDatabase } from "/work/main/app/models/db.server";
const embedded = await startEmbeddedPostgres({ dataDir: "/work/main/.data-bench", log: () => {} });
const db = createDatabase(embedded.url, { poolMax: 2, preparedStatements: true });
const { prepared } = await import("/work/main/app/models/prepared-statements.server");
const sid = (await db.sequelize.query<{ id: string }>("select s.id from sessions s join users u on u.id=s.user_id where u.role='user' and s.expires_at>now() limit 1", { type: QueryTypes.SELECT }))[0]!.id;
const SQL = prepared(`SELECT u.id, u.user_name AS "userName", u.email, u.role FROM sessions s JOIN users u ON u.id = s.user_id AND s.id = $1 AND s.expires_at > now()`);
const client: any = await (db.sequelize as any).connectionManager.getConnection();
const N = 4000;
for (let round = 0; round < 4; round++) {
  let t = process.cpuUsage();
  for (let i = 0; i < N; i++) await db.sequelize.query(SQL, { bind: [sid], type: QueryTypes.SELECT });
  let u = process.cpuUsage(t); const seq = (u.user + u.system) / N;
  t = process.cpuUsage();
  for (let i = 0; i < N; i++) await new Promise((res, rej) => client.query(SQL, [sid], (e: any, r: any) => (e ? rej(e) : res(r.rows))));
  u = process.cpuUsage(t); const raw = (u.user + u.system) / N;
  console.log(`node CPU µs per query: sequelize ${seq.toFixed(1)}, pg client ${raw.toFixed(1)}`);
}
(db.sequelize as any).connectionManager.releaseConnection(client);
await db.sequelize.close(); await embedded.stop();
