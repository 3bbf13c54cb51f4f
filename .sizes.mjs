import { parseAst } from 'rollup/parseAst';
import fs from 'node:fs'; import zlib from 'node:zlib';
const s=fs.readFileSync(process.argv[2]||'dist/sdk/cpe.js','utf8');
const ast=parseAst(s);
const gz=(t)=>zlib.gzipSync(t,{level:9}).length;
const total=gz(s);
const rows=ast.body.map(n=>[total-gz(s.slice(0,n.start)+s.slice(n.end)),n.end-n.start,s.slice(n.start,n.start+110)]).sort((x,y)=>y[0]-x[0]);
console.log('total',total);
for(const r of rows.slice(0,45)) console.log(r[0],r[1],r[2].replace(/\n/g,' '));
