import { render } from 'preact';
import { dataElementId, type ReportData } from '../report-data.js';
import { App } from './app.js';
import './styles.css';
import './conversation.css';
import './why.css';

const root = document.getElementById('app');
const source = document.getElementById(dataElementId)?.textContent ?? '';
// The data is the page's own, written by `skeval report` with every string escaped for this element.
const data: ReportData | null = source ? JSON.parse(source) : null;
if (root) {
  if (data?.version === 1) render(<App data={data} />, root);
  else root.textContent = 'This report holds no data Skeval can read: make it again with `skeval report <run-dir>`.';
}
